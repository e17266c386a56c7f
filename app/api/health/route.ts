// GET /api/health: the instance's health for a load balancer and an operator (lib/server/cluster/health.ts): 200 when
// it can take work, 503 (same shape) when the database does not answer or the instance is draining. No sign-in and no
// secrets; never cached. Thin: the report is built in lib/server.
import 'server-only';
import { checkHealth, getServices } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const report = await checkHealth(await getServices());
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
