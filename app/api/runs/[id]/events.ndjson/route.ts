// GET /api/runs/<id>/events.ndjson: a run's event log, one JSON event per line, for scripts and curl.
// ?after=<seq> starts after a seq; ?follow=1 keeps streaming live events until the run finishes.
import 'server-only';
import { getRun, getServices, streamRunEvents } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const url = new URL(req.url);
  const after = Number(url.searchParams.get('after') ?? '0');
  if (!Number.isInteger(after) || after < 0) {
    return Response.json({ error: '"after" must be a whole number of at least 0' }, { status: 400 });
  }
  const services = await getServices();
  if (!(await getRun(services.prisma, id))) return Response.json({ error: `no run ${id}` }, { status: 404 });

  const events = streamRunEvents({
    prisma: services.prisma,
    bus: services.bus,
    runId: id,
    afterSeq: after,
    follow: url.searchParams.get('follow') === '1',
    signal: req.signal,
  });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'content-disposition': `inline; filename="run-${id}.ndjson"`,
    },
  });
}
