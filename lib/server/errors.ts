/**
 * Domain errors of the server, each mapped to one tRPC code by the routers' middleware (trpc.ts):
 * a missing run is NOT_FOUND, a command the run's state forbids is CONFLICT, a bad field is BAD_REQUEST.
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
