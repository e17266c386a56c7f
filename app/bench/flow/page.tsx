// /bench/flow?n=<count>: exists for the benchmark only (npm run bench:ui, lib/bench/ui.ts), not part of the product.
// A bare React Flow canvas with n plain default nodes in a grid and nothing else, so the bench can pan it the way it
// pans a run and print what the run canvas costs beyond the library's own drawing of as many nodes.
import { notFound } from 'next/navigation';
import { BareFlow } from './BareFlow';

// read per request: a build serves the page only to a server started by the bench (ARBORIST_BENCH=1)
export const dynamic = 'force-dynamic';

/** Far above any run the bench draws; keeps a stray URL from asking the browser for millions of nodes. */
const MAX_NODES = 200_000;

export default async function BareFlowPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  if (process.env.ARBORIST_BENCH !== '1') notFound();
  const { n } = await searchParams;
  const count = Math.min(MAX_NODES, Math.max(0, Math.floor(Number(n ?? 100)) || 0));
  return <BareFlow count={count} />;
}
