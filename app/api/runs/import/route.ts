// POST /api/runs/import[?tag=&name=]: an Arborist export or a Tree-of-Thoughts log as new runs
// (lib/server/http/run-files.ts).
import 'server-only';
import { getServices, importRunsResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request) {
  return importRunsResponse(await getServices(), req);
}
