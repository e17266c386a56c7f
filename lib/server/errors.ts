/**
 * Domain errors of the server, each mapped to one tRPC code by the routers' middleware (trpc.ts):
 * a missing run is NOT_FOUND, a command the run's state forbids is CONFLICT, a bad field is BAD_REQUEST, what the
 * actor may not do (a custom model server in team mode, for a non-admin) is FORBIDDEN.
 * They are recognised by `name`, not instanceof: Next bundles the start-up hook (which creates the services) and
 * the route handlers separately, so one error class can exist twice in one process.
 * Not responsible for HTTP or tRPC themselves.
 */

export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** A value a person typed is wrong; `field` names the form field so the message can sit beside it. */
export class InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

/** The actor may not do this, whatever the input (e.g. a custom model server in team mode, for a non-admin). */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export type DomainErrorKind = 'not-found' | 'conflict' | 'input' | 'forbidden';

const KINDS: Record<string, DomainErrorKind> = {
  NotFoundError: 'not-found',
  ConflictError: 'conflict',
  InputError: 'input',
  InvalidConfigError: 'input',
  ForbiddenError: 'forbidden',
};

export function domainErrorKind(error: unknown): DomainErrorKind | null {
  return error instanceof Error ? (KINDS[error.name] ?? null) : null;
}

/** The form field an InputError names, if any. */
export function errorField(error: unknown): string | null {
  return error instanceof Error && error.name === 'InputError' ? ((error as InputError).field ?? null) : null;
}
