// GET /share/<token>: open a read-only share link (lib/server/http/share-open.ts).
import 'server-only';
import { admit, openShareLinkResponse } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const admitted = await admit(req);
  if (admitted instanceof Response) return admitted;
  return openShareLinkResponse(admitted, req, (await params).token);
}
