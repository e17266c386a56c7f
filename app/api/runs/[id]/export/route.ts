// GET /api/runs/<id>/export: the run as an Arborist export file (lib/server/http/run-files.ts).
import 'server-only';
import { exportRunResponse, getServices } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return exportRunResponse(await getServices(), id);
}
