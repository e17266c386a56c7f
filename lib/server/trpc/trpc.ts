/**
 * tRPC initialised once: superjson, SSE settings for subscriptions, an error formatter that flattens zod errors
 * (so a form can show them per field) and never sends a 5xx's internals, and the one middleware that turns domain
 * errors into precise codes (NOT_FOUND, CONFLICT, BAD_REQUEST).
 * Not responsible for procedures (routers/) or the HTTP handler (app/api/trpc).
 */
import { TRPCError, initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { type DomainErrorKind, domainErrorKind, errorField, ForbiddenError } from '../core/errors';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { canCreateRuns, canListRuns, isAdmin, type Principal } from '../../contract/access';
import type { Context } from './context';

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  sse: {
    ping: { enabled: true, intervalMs: 2_000 },
    client: { reconnectAfterInactivityMs: 5_000 },
  },
  errorFormatter({ shape, error }) {
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const zodError = error.cause instanceof ZodError ? flattenByPath(error.cause) : null;
    const field = errorField(error.cause);
    const firstIssue = error.cause instanceof ZodError ? error.cause.issues[0] : undefined;
    return {
      ...shape,
      // zod's own message is a JSON list; a person reads the first problem, with its field
      message: internal
        ? 'Internal server error'
        : firstIssue
          ? `${firstIssue.path.join('.') || 'input'}: ${firstIssue.message}`
          : shape.message,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, zodError, field },
    };
  },
});

/** Field errors keyed by their full path ("config.beamWidth"), so nested fields are told apart. */
function flattenByPath(error: ZodError): { formErrors: string[]; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) formErrors.push(issue.message);
    else (fieldErrors[issue.path.join('.')] ??= []).push(issue.message);
  }
  return { formErrors, fieldErrors };
}

const TRPC_CODES = {
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  input: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  'too-many': 'TOO_MANY_REQUESTS',
} as const satisfies Record<DomainErrorKind, TRPC_ERROR_CODE_KEY>;

/** Domain errors to tRPC codes; anything else stays a 500 (logged by the handler, hidden from the browser). */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    const kind = domainErrorKind(cause);
    if (cause && kind) {
      throw new TRPCError({ code: TRPC_CODES[kind], message: cause.message, cause });
    }
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(domainErrors);
export const createCallerFactory = t.createCallerFactory;

/** Anyone but nobody: a user, the local person, or a share link's holder (whose reads are checked per run). */
export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.who.kind === 'anonymous') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  return next();
});

/** Whoever may see the lists of runs and experiments: users and the local person (a share link opens one page). */
export const listProcedure = signedInProcedure.use(({ ctx, next }) => {
  const who = ctx.who;
  if (!canListRuns(who)) {
    const what = who.kind === 'share' && who.experimentId ? 'experiment' : 'run';
    throw new ForbiddenError(`this share link opens one ${what} only`);
  }
  return next();
});

/** Members and admins (and the local person): start runs, import, steer. */
export const memberProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (!canCreateRuns(ctx.who)) throw new TRPCError({ code: 'FORBIDDEN', message: forbiddenMessage(ctx.who) });
  return next();
});

/** Admins (and the local person): users and everyone's keys. */
export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (!isAdmin(ctx.who)) throw new TRPCError({ code: 'FORBIDDEN', message: 'only an admin may do this' });
  return next();
});

/** Signed in as a user (team mode): their own keys, their password. */
export const userProcedure = signedInProcedure.use(({ ctx, next }) => {
  const who = ctx.who;
  if (who.kind !== 'user') throw new TRPCError({ code: 'FORBIDDEN', message: 'only a signed-in user has this' });
  return next({ ctx: { user: who } });
});

function forbiddenMessage(who: Principal): string {
  if (who.kind === 'share') return 'a share link is read only';
  if (who.kind === 'user' && who.role === 'viewer')
    return 'viewers have read-only access: ask an admin for the member role';
  return 'not allowed';
}
