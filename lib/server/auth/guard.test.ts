// The origin guard on the requests a browser page of another site could send, and on the ones our own pages,
// scripts and curl send.
import { describe, expect, it } from 'vitest';
import { checkRequestOrigin } from './guard';
import type { AuthSettings } from './settings';

const LOCAL: AuthSettings = { team: false, secret: 's'.repeat(40), allowedOrigins: [], allowOpen: false };
const TEAM: AuthSettings = { ...LOCAL, team: true, allowedOrigins: ['https://arborist.example.com'] };

function post(headers: Record<string, string>, host = 'localhost:3000'): Request {
  return new Request('http://localhost:3000/api/trpc/run.delete', {
    method: 'POST',
    headers: { host, 'content-type': 'application/json', ...headers },
    body: '{"id":"r1"}',
  });
}

const statusOf = (request: Request, settings: AuthSettings) => checkRequestOrigin(request, settings)?.status ?? 'ok';

describe('checkRequestOrigin', () => {
  it('lets our own pages write: same origin, JSON', () => {
    expect(statusOf(post({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }), LOCAL)).toBe('ok');
  });

  it('lets scripts and curl write: no Origin, no Sec-Fetch-Site (they carry nobody else’s cookies)', () => {
    expect(statusOf(post({}), LOCAL)).toBe('ok');
  });

  it('refuses a write from a page of another site, whatever it claims', async () => {
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:3001' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' },
    ];
    for (const headers of attempts) {
      const refusal = checkRequestOrigin(post(headers), LOCAL);
      expect(refusal?.status, JSON.stringify(headers)).toBe(403);
      expect(((await refusal!.json()) as { error: string }).error).toMatch(/cross-(origin|site) request refused/);
    }
  });

  it("refuses the bodies a cross-site form or 'simple' fetch can send (text/plain, forms), before any handler", () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const request = new Request('http://localhost:3000/api/runs/import', {
        method: 'POST',
        headers: type ? { host: 'localhost:3000', 'content-type': type } : { host: 'localhost:3000' },
        body: '{}',
      });
      if (!type) request.headers.delete('content-type');
      expect(statusOf(request, LOCAL), type).toBe(415);
    }
  });

  it("takes NDJSON writes (the ingest API's batches), which no form or simple fetch can send either", () => {
    const request = new Request('http://localhost:3000/api/ingest/runs/x/events', {
      method: 'POST',
      headers: { host: 'localhost:3000', 'content-type': 'application/x-ndjson' },
      body: '{"seq":1}\n',
    });
    expect(statusOf(request, LOCAL)).toBe('ok');
  });

  it('in local mode answers loopback names only, so a rebound DNS name cannot read or write (GETs too)', () => {
    const read = (host: string) => new Request('http://x/api/trpc/run.list', { headers: { host } });
    expect(statusOf(read('localhost:3000'), LOCAL)).toBe('ok');
    expect(statusOf(read('127.0.0.1:3000'), LOCAL)).toBe('ok');
    expect(statusOf(read('[::1]:3000'), LOCAL)).toBe('ok');
    expect(statusOf(read('evil.example:3000'), LOCAL)).toBe(403);
    expect(statusOf(post({ origin: 'http://evil.example:3000' }, 'evil.example:3000'), LOCAL)).toBe(403);
    // a header the attacking page may add does not change the verdict
    const spoofed = new Request('http://x/api/trpc/run.list', {
      headers: { host: 'evil.example:3000', 'x-forwarded-host': 'localhost:3000' },
    });
    expect(statusOf(spoofed, LOCAL)).toBe(403);
    expect(statusOf(read('evil.example:3000'), { ...LOCAL, allowOpen: true })).toBe('ok');
  });

  it('in team mode answers any host, and accepts writes from an allowed origin (a proxy in front)', () => {
    const behindProxy = post({ origin: 'https://arborist.example.com' }, 'arborist-internal:3000');
    expect(statusOf(behindProxy, TEAM)).toBe('ok');
    expect(statusOf(post({ origin: 'https://other.example.com' }, 'arborist-internal:3000'), TEAM)).toBe(403);
  });
});
