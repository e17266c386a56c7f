// POST /api/ingest/runs/<id>/heartbeat: the client is alive (lib/server/ingest/http.ts).
import 'server-only';
import { ingestHeartbeatResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return ingestHeartbeatResponse(req, id);
}
