/**
 * Domain errors of the server, each mapped to one tRPC code by the routers' middleware (trpc.ts):
 * a missing run is NOT_FOUND, a command the run's state forbids is CONFLICT, a bad field is BAD_REQUEST, nobody
 * signed in is UNAUTHORIZED, a role or link that does not allow it is FORBIDDEN, too many at once TOO_MANY_REQUESTS.
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

/** Team mode, and nobody is signed in. */
export class UnauthorizedError extends Error {
  constructor(message = 'sign in first') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** Signed in (or holding a share link), but this is not theirs to do. */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

/** Too many attempts or jobs at once: try again later. */
export class TooManyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TooManyError';
  }
}

export type DomainErrorKind = 'not-found' | 'conflict' | 'input' | 'unauthorized' | 'forbidden' | 'too-many';

const KINDS: Record<string, DomainErrorKind> = {
  NotFoundError: 'not-found',
  ConflictError: 'conflict',
  InputError: 'input',
  InvalidConfigError: 'input',
  UnauthorizedError: 'unauthorized',
  ForbiddenError: 'forbidden',
  TooManyError: 'too-many',
};

export function domainErrorKind(error: unknown): DomainErrorKind | null {
  return error instanceof Error ? (KINDS[error.name] ?? null) : null;
}

/** The form field an InputError names, if any. */
export function errorField(error: unknown): string | null {
  return error instanceof Error && error.name === 'InputError' ? ((error as InputError).field ?? null) : null;
}
