// GET /api/ingest/runs/<id>/commands: long-poll the commands people aim at the run (?after=S&waitMs=W) (lib/server/ingest/http.ts).
import 'server-only';
import { ingestCommandsResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return ingestCommandsResponse(req, id);
}
