// GET /api/runs/<id>/events.ndjson: a run's event log, one JSON event per line, for scripts and curl.
// ?after=<seq> starts after a seq; ?follow=1 keeps streaming live events until the run finishes. Whoever may read the
// run; model calls come without their prompts to a reader who may not read them (a share link without prompts).
import 'server-only';
import { canOnRun } from '@/lib/contract/access';
import {
  admitToRun,
  eventPagesText,
  logQueryOf,
  ndjsonBody,
  streamRunEventPages,
  withoutPrompt,
} from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const query = logQueryOf(req);
  if (query instanceof Response) return query;
  const admitted = await admitToRun(req, id, 'read');
  if (admitted instanceof Response) return admitted;
  const { services, who, run } = admitted;
  const light = !canOnRun(who, 'readPrompts', run);

  const chunks = eventPagesText(
    streamRunEventPages({
      prisma: services.prisma,
      bus: services.bus,
      runId: id,
      afterSeq: query.after,
      follow: query.follow,
      signal: req.signal,
    }),
    (event) => JSON.stringify(light ? withoutPrompt(event) : event),
  );
  const body = ndjsonBody(chunks);
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'content-disposition': `inline; filename="run-${id}.ndjson"`,
    },
  });
}
