// POST OTLP/HTTP logs exports: an empty success, so an SDK set up to export logs too logs no errors.
import 'server-only';
import { otlpEmptyResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function POST(req: Request) {
  return otlpEmptyResponse(req, 'logs');
}
