// GET /api/runs/<id>/snapshot.json: the run's latest tree as stored, its seq in a header (lib/server/http/run-reads.ts),
// for whoever may read the run: what the run page draws first.
import 'server-only';
import { admitToRun, snapshotResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const admitted = await admitToRun(req, (await params).id, 'read');
  if (admitted instanceof Response) return admitted;
  return snapshotResponse(admitted.services, admitted.run.id);
}
