// POST /api/ingest/runs/<id>/finish: the search is over (a finish not counted in the client's seqs) (lib/server/ingest/http.ts).
import 'server-only';
import { ingestFinishResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return ingestFinishResponse(req, id);
}
