/**
 * Small helpers to call the tRPC API over plain HTTP from tests (superjson's wire format: { json: ... }).
 */
import type { ExplorationEvent } from '../lib/engine/events';

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
