/**
 * tRPC initialised once: superjson, SSE settings for subscriptions, an error formatter that flattens zod errors
 * (so a form can show them per field) and never sends a 5xx's internals, and the one middleware that turns domain
 * errors into precise codes (NOT_FOUND, CONFLICT, BAD_REQUEST).
 * Not responsible for procedures (routers/) or the HTTP handler (app/api/trpc).
 */
import { TRPCError, initTRPC } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import { domainErrorKind, errorField } from '../errors';
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

/** Domain errors to tRPC codes; anything else stays a 500 (logged by the handler, hidden from the browser). */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    const kind = domainErrorKind(cause);
    if (cause && kind) {
      const code = kind === 'not-found' ? 'NOT_FOUND' : kind === 'conflict' ? 'CONFLICT' : 'BAD_REQUEST';
      throw new TRPCError({ code, message: cause.message, cause });
    }
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(domainErrors);
export const createCallerFactory = t.createCallerFactory;
