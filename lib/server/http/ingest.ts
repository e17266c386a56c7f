/**
 * The ingest API's route handlers, each one call from its app/api/ingest/runs/... route: admitted (guard, then who
 * is asking: http/admit.ts), allowed (create: whoever may create runs; the rest: the run's creator or an admin,
 * canIngestInto of lib/contract/access.ts), then the service's answer as JSON. Refusals are IngestError bodies
 * (400 invalid, 404, 409 gap/conflict/closed); 401/403 are answered as on every route.
 * Not responsible for the rules of batches (service.ts) or reading bodies (body.ts).
 */
import { actorName, canCreateRuns, canIngestInto, type Principal } from '../../contract/access';
import { actorFromHeader } from '../auth/actor';
import { accessErrorResponse, type Admitted, admit } from './admit';
import { domainErrorKind, ForbiddenError, UnauthorizedError } from '../core/errors';
import { getRun } from '../repositories/runs';
import { getIngestClient } from '../repositories/ingest';
import { isNdjson, readBody, splitBatch } from '../ingest/body';
import { IngestRefusal, invalidBatch, isIngestRefusal } from '../ingest/refusal';

/** A create or finish body is small: a goal and a config. */
const MAX_SMALL_BODY = 1024 * 1024;

const NO_STORE = { 'cache-control': 'no-store' };

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

/** Any failure of a handler as its response: refusals as IngestError, access as everywhere, a conflict as 409. */
function failure(error: unknown): Response {
  if (isIngestRefusal(error)) return json(error.body, error.status);
  const kind = domainErrorKind(error);
  if (kind === 'conflict') return json({ error: 'conflict', message: (error as Error).message }, 409);
  return accessErrorResponse(error);
}

/** The request's JSON body (a small one), or {} when it is empty. */
async function smallJson(request: Request): Promise<unknown> {
  const text = await readBody(request, MAX_SMALL_BODY);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidBatch([{ path: '(body)', message: `the body is not JSON: ${(error as Error).message}` }]);
  }
}

/** The principal may write to this external run (404 when it is not one). */
async function allowOnRun({ services, who }: Admitted, runId: string): Promise<void> {
  if (who.kind === 'anonymous') throw new UnauthorizedError();
  const [run, client] = await Promise.all([getRun(services.prisma, runId), getIngestClient(services.prisma, runId)]);
  if (!run || !client) throw new IngestRefusal(404, { error: 'not-found', message: `no ingest run ${runId}` });
  if (!canIngestInto(who, run)) {
    throw new ForbiddenError('you may append only to the runs you created (admins: to any)');
  }
}

/** Admits the request and checks the run, then answers with `handle`'s result. */
async function onRun(
  request: Request,
  runId: string,
  handle: (admitted: Admitted) => Promise<unknown>,
): Promise<Response> {
  const admitted = await admit(request);
  if (admitted instanceof Response) return admitted;
  try {
    await allowOnRun(admitted, runId);
    return json(await handle(admitted));
  } catch (error) {
    return failure(error);
  }
}

/** Who makes a run, for the log and its row: the local person by the page's name, else the principal. */
export function creatorOf(who: Principal, request: Request): { ownerId: string | null; actor: string } {
  if (who.kind === 'local') return { ownerId: null, actor: actorFromHeader(request.headers.get('x-arborist-actor')) };
  return { ownerId: who.kind === 'user' ? who.id : null, actor: actorName(who) };
}

/** POST /api/ingest/runs */
export async function ingestCreateResponse(request: Request): Promise<Response> {
  const admitted = await admit(request);
  if (admitted instanceof Response) return admitted;
  try {
    const { who, services } = admitted;
    if (who.kind === 'anonymous') throw new UnauthorizedError();
    if (!canCreateRuns(who)) throw new ForbiddenError('your role reads runs only: ask an admin for the member role');
    const created = await services.ingest.create(await smallJson(request), creatorOf(who, request));
    return json(created, 201);
  } catch (error) {
    return failure(error);
  }
}

/** POST /api/ingest/runs/:id/events (a JSON array, {"items": [...]}, or NDJSON) */
export function ingestEventsResponse(request: Request, runId: string): Promise<Response> {
  return onRun(request, runId, async ({ services }) => {
    const text = await readBody(request);
    const items = splitBatch(text, isNdjson(request.headers.get('content-type')));
    return services.ingest.append(runId, items);
  });
}

/** POST /api/ingest/runs/:id/finish (a finish not counted in the client's seqs) */
export function ingestFinishResponse(request: Request, runId: string): Promise<Response> {
  return onRun(request, runId, async ({ services }) => services.ingest.finish(runId, await smallJson(request)));
}

/** POST /api/ingest/runs/:id/heartbeat */
export function ingestHeartbeatResponse(request: Request, runId: string): Promise<Response> {
  return onRun(request, runId, ({ services }) => services.ingest.heartbeat(runId));
}

/** A query number: absent is `fallback`, anything but a whole number >= 0 is a 400. */
function queryCount(url: URL, name: string, fallback: number): number {
  const text = url.searchParams.get(name);
  if (text === null || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalidBatch([{ path: name, message: `expected a whole number >= 0, got ${JSON.stringify(text)}` }]);
  }
  return value;
}

/** GET /api/ingest/runs/:id/commands?after=S&waitMs=W */
export function ingestCommandsResponse(request: Request, runId: string): Promise<Response> {
  return onRun(request, runId, async ({ services }) => {
    const url = new URL(request.url);
    const after = queryCount(url, 'after', 0);
    const waitMs = queryCount(url, 'waitMs', 0);
    return services.ingest.commands(runId, after, waitMs, request.signal);
  });
}
