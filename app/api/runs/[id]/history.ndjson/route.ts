// GET /api/runs/<id>/history.ndjson?after=&until=: the run's light log of that range, one event per line
// (lib/server/http/run-reads.ts), for whoever may read the run: the run page's history for time travel.
import 'server-only';
import { admitToRun, historyResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const admitted = await admitToRun(req, (await params).id, 'read');
  if (admitted instanceof Response) return admitted;
  return historyResponse(admitted.services, admitted.run, req);
}
