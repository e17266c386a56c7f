/**
 * The run page's two big reads over plain HTTP, as functions of the services, the run and a Request, so tests call
 * them without a server and the Route Handlers stay a few lines each:
 * - GET /api/runs/<id>/snapshot.json: the latest tree (a ThoughtTree) as the JSON text it is stored as, its seq in
 *   the SNAPSHOT_SEQ_HEADER header (lib/contract/run.ts), so the page knows where its history ends before the
 *   tree's megabytes are in;
 * - GET /api/runs/<id>/history.ndjson?after=<seq>&until=<seq>: the light log of that range (model calls without
 *   their prompts, whoever asks: the inspector fetches one whole with run.event), one event per line without its
 *   runId (a HistoryLine, lib/contract/run.ts), pulled a page at a time (streaming/history-text.ts). `until`
 *   defaults to the log's end when asked.
 * Both were tRPC queries: the transformer escaped each page's megabytes into a JSON string that the browser then
 * parsed twice, and each page waited for its own request.
 * Not responsible for who may read a run (the routes ask admitToRun first, as for events.ndjson) or for the origin
 * guard (admit).
 */
import { z } from 'zod';
import { type RunRecord, SNAPSHOT_SEQ_HEADER } from '../../contract/run';
import { latestTreeText } from '../run-log/index';
import { historyText } from '../streaming/history-text';
import { ndjsonBody } from '../streaming/event-stream';
import type { ServerServices } from '../services';

type Services = Pick<ServerServices, 'prisma'>;

const NO_STORE = { 'cache-control': 'no-store' } as const;

const seqParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be at least 0');
const logQuery = z.object({
  after: seqParam.default(0),
  until: seqParam.optional(),
  follow: z
    .string()
    .optional()
    .transform((value) => value === '1'),
});

/** What the log routes (events.ndjson, history.ndjson) are asked: after, until, follow. */
export type LogQuery = z.infer<typeof logQuery>;

/** A log route's query, or the 400 that says its first problem as "<name> <what is wrong>". */
export function logQueryOf(request: Request): LogQuery | Response {
  const parsed = logQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = `"${String(issue?.path[0] ?? 'query')}" ${issue?.message ?? 'is not valid'}`;
  return Response.json({ error: problem }, { status: 400, headers: NO_STORE });
}

export async function snapshotResponse(services: Services, runId: string): Promise<Response> {
  const latest = await latestTreeText(services.prisma, runId);
  if (!latest) return Response.json({ error: `no run ${runId}` }, { status: 404, headers: NO_STORE });
  return new Response(latest.tree, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [SNAPSHOT_SEQ_HEADER]: String(latest.seq),
      ...NO_STORE,
    },
  });
}

export async function historyResponse(
  services: Services,
  run: Pick<RunRecord, 'id' | 'lastSeq'>,
  request: Request,
): Promise<Response> {
  const query = logQueryOf(request);
  if (query instanceof Response) return query;
  const untilSeq = query.until ?? run.lastSeq;
  const chunks = historyText(services.prisma, run.id, { afterSeq: query.after, untilSeq, signal: request.signal });
  return new Response(ndjsonBody(chunks), {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8', ...NO_STORE },
  });
}
