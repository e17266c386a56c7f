// Local mode (no accounts) is still guarded from the web: the test server is the default one, and a page of another
// site, or one that rebinds its DNS name to 127.0.0.1, can neither import into it nor read it.
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { E2E_BASE, query } from './api';

/** A raw HTTP request, so the Host header is ours to choose (fetch does not let a caller set it). */
function raw(path: string, method: string, headers: Record<string, string>, body = ''): Promise<number> {
  const url = new URL(path, E2E_BASE);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a cross-site import and a rebound host name are refused, and nothing is imported', async () => {
  // the summary counts every run (a page of the list would stop at its limit)
  const before = (await query<{ runs: number }>(E2E_BASE, 'run.summary', {})).runs;
  const file = JSON.stringify([{ idx: 0, ys: [], steps: [] }]);
  // what a page of another site can send without a preflight: text/plain, with its own Origin
  const simple = await fetch(`${E2E_BASE}/api/runs/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    body: file,
  });
  expect(simple.status).toBe(403);
  const sameOriginText = await fetch(`${E2E_BASE}/api/runs/import`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: file,
  });
  expect(sameOriginText.status).toBe(415);
  // DNS rebinding: the browser thinks it talks to evil.example, so the Host says so
  const host = `evil.example:${new URL(E2E_BASE).port}`;
  expect(await raw('/api/trpc/run.list', 'GET', { host })).toBe(403);
  expect(
    await raw('/api/runs/import', 'POST', { host, origin: `http://${host}`, 'content-type': 'application/json' }, file),
  ).toBe(403);
  expect((await query<{ runs: number }>(E2E_BASE, 'run.summary', {})).runs).toBe(before);
});
