// /compare?a=<run>&b=<run>: two runs side by side.
import Link from 'next/link';
import { CompareView } from '@/components/compare/CompareView';

export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { a, b } = await searchParams;
  if (!a || !b) {
    return (
      <main className="run-missing">
        <h1>Pick two runs to compare</h1>
        <p>Open a fork and use “Compare with parent”, or link to /compare?a=&lt;run id&gt;&amp;b=&lt;run id&gt;.</p>
        <Link className="btn" href="/">
          All runs
        </Link>
      </main>
    );
  }
  return <CompareView a={a} b={b} />;
}
