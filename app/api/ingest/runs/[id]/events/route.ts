// POST /api/ingest/runs/<id>/events: a batch of the client's items (JSON array, {items}, or NDJSON) (lib/server/ingest/http.ts).
import 'server-only';
import { ingestEventsResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return ingestEventsResponse(req, id);
}
