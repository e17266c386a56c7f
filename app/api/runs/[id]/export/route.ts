// GET /api/runs/<id>/export: the run as an Arborist export file (lib/server/http/run-files.ts), for whoever may read
// its whole prompts.
import 'server-only';
import { admitToRun, exportRunResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const admitted = await admitToRun(req, (await params).id, 'readPrompts');
  if (admitted instanceof Response) return admitted;
  return exportRunResponse(admitted.services, admitted.run.id);
}
