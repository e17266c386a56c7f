/**
 * The door every HTTP route goes through before it does anything: the origin guard (auth/guard.ts), then who is
 * asking (auth/principal.ts) on the process's services. Route handlers stay one line of checking each.
 * Not responsible for what a route does with the principal (the routes, run-access.ts).
 */
import { canCreateRuns, type Principal, type RunAction } from '../../contract/access';
import type { RunRecord } from '../../contract/run';
import { checkRequestOrigin } from '../auth/guard';
import { principalFor } from '../auth/principal';
import { authSettings, type AuthSettings } from '../auth/settings';
import { domainErrorKind, ForbiddenError, UnauthorizedError } from '../core/errors';
import { getServices } from '../services';
import type { ServerServices } from '../services';
import { runFor } from '../auth/run-access';

export interface Admitted {
  services: ServerServices;
  settings: AuthSettings;
  who: Principal;
}

let settings: AuthSettings | null = null;

/** The process's auth settings, read once (the environment does not change under a running server). */
export function serverAuthSettings(): AuthSettings {
  settings ??= authSettings();
  return settings;
}

/** The request's services and principal, or the Response that refuses it. */
export async function admit(request: Request): Promise<Admitted | Response> {
  const auth = serverAuthSettings();
  const refusal = checkRequestOrigin(request, auth);
  if (refusal) return refusal;
  const services = await getServices();
  return { services, settings: auth, who: await principalFor(services.prisma, auth, request.headers) };
}

const STATUS = { unauthorized: 401, forbidden: 403, 'not-found': 404, 'too-many': 429 } as const;

/** An access error (nobody, not allowed, no such run) as its JSON response; anything else is rethrown. */
export function accessErrorResponse(error: unknown): Response {
  const kind = domainErrorKind(error);
  if (kind && kind in STATUS) {
    return Response.json(
      { error: (error as Error).message },
      { status: STATUS[kind as keyof typeof STATUS], headers: { 'cache-control': 'no-store' } },
    );
  }
  throw error;
}

export interface AdmittedToRun extends Admitted {
  run: RunRecord;
}

/** The request admitted and allowed `action` on the run, or the Response that refuses it: a run's file routes. */
export async function admitToRun(
  request: Request,
  runId: string,
  action: RunAction,
): Promise<AdmittedToRun | Response> {
  const admitted = await admit(request);
  if (admitted instanceof Response) return admitted;
  try {
    return { ...admitted, run: await runFor({ prisma: admitted.services.prisma, who: admitted.who }, runId, action) };
  } catch (error) {
    return accessErrorResponse(error);
  }
}

/** Imports make runs: members, admins and the local person. */
export function mayImport(who: Principal): void {
  if (who.kind === 'anonymous') throw new UnauthorizedError();
  if (!canCreateRuns(who)) throw new ForbiddenError('your role reads runs only: ask an admin for the member role');
}
