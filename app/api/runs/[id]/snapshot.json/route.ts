// GET /api/runs/<id>/snapshot.json: the run's latest tree as stored, its seq in a header (lib/server/http/run-reads.ts),
// for whoever may read the run: what the run page draws first.
import 'server-only';
import type { RunRecord } from '@/lib/contract/run';
import { accessErrorResponse, admit, snapshotResponse, runFor } from '@/lib/server/index';

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
  return snapshotResponse(services, run.id);
}
