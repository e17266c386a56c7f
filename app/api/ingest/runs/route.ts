// POST /api/ingest/runs: a new external run, for a program that runs its own search (lib/server/ingest/http.ts).
import 'server-only';
import { ingestCreateResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return ingestCreateResponse(req);
}
