/**
 * Small helpers to call the tRPC API over plain HTTP from tests (superjson's wire format: { json: ... }).
 */
import type { ExplorationEvent } from '../lib/contract/events';

/** The test server's address (playwright.config.ts starts it on E2E_PORT, 3100 unless set). */
export const E2E_BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;

export async function mutate<T>(base: string, path: string, input: unknown): Promise<T> {
  const res = await fetch(`${base}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-arborist-actor': 'e2e' },
    body: JSON.stringify({ json: input }),
  });
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: { json: { message: string } } };
  if (!res.ok || !body.result) throw new Error(`${path} failed (${res.status}): ${body.error?.json.message ?? ''}`);
  return body.result.data.json;
}

export async function query<T>(base: string, path: string, input: unknown): Promise<T> {
  const res = await fetch(`${base}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: { json: { message: string } } };
  if (!res.ok || !body.result) throw new Error(`${path} failed (${res.status}): ${body.error?.json.message ?? ''}`);
  return body.result.data.json;
}

export async function ndjson(base: string, runId: string): Promise<ExplorationEvent[]> {
  const res = await fetch(`${base}/api/runs/${runId}/events.ndjson`);
  if (!res.ok) throw new Error(`events.ndjson failed (${res.status})`);
  return (await res.text())
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExplorationEvent);
}

/** The demo run: the first run of the test server's database (seeded at start-up), found by paging to the oldest. */
export async function demoRunId(base: string): Promise<string> {
  let cursor: string | null = null;
  let oldest: string | null = null;
  do {
    const page: { items: { id: string }[]; nextCursor: string | null } = await query(base, 'run.list', {
      limit: 200,
      cursor,
    });
    oldest = page.items.at(-1)?.id ?? oldest;
    cursor = page.nextCursor;
  } while (cursor);
  if (!oldest) throw new Error('the test server has no runs: the demo run was not seeded');
  return oldest;
}
