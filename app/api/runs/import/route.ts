// POST /api/runs/import[?tag=&name=]: an Arborist export or a Tree-of-Thoughts log as new runs
// (lib/server/http/run-files.ts), for whoever may create runs (lib/server/http/admit.ts).
import 'server-only';
import { accessErrorResponse, admit, importRunsResponse, mayImport } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request) {
  const admitted = await admit(req);
  if (admitted instanceof Response) return admitted;
  try {
    mayImport(admitted.who);
  } catch (error) {
    return accessErrorResponse(error);
  }
  const userId = admitted.who.kind === 'user' ? admitted.who.id : null;
  return importRunsResponse(admitted.services, req, { who: userId ?? 'local', ownerId: userId });
}
