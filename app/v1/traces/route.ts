// POST OTLP/HTTP trace exports (protobuf or JSON, plain or gzip): every trace an external run (lib/server/http/otlp.ts).
import 'server-only';
import { otlpTracesResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return otlpTracesResponse(req);
}
