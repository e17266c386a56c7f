// GET /api/runs/<id>/history.ndjson?after=&until=: the run's light log of that range, one event per line
// (lib/server/http/run-reads.ts), for whoever may read the run: the run page's history for time travel.
import 'server-only';
import type { RunRecord } from '@/lib/contract/run';
import { accessErrorResponse, admit, historyResponse, runFor } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const admitted = await admit(req);
  if (admitted instanceof Response) return admitted;
  const { services, who } = admitted;
  let run: RunRecord;
  try {
    run = await runFor({ prisma: services.prisma, who }, id, 'read');
  } catch (error) {
    return accessErrorResponse(error);
  }
  return historyResponse(services, run, req);
}
