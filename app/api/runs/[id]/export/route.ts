// GET /api/runs/<id>/export: the run as an Arborist export file (lib/server/http/run-files.ts), for whoever may read
// its whole prompts.
import 'server-only';
import { accessErrorResponse, admit, exportRunResponse, runFor } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const admitted = await admit(req);
  if (admitted instanceof Response) return admitted;
  try {
    await runFor({ prisma: admitted.services.prisma, who: admitted.who }, id, 'readPrompts');
  } catch (error) {
    return accessErrorResponse(error);
  }
  return exportRunResponse(admitted.services, id);
}
