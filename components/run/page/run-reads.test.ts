// The run page's reads against a real HTTP server on loopback: the history arrives whole and in order however the
// server cuts it, is taken up again after the server fails or the answer breaks off mid-line, stops on a refusal,
// and the snapshot's seq is known from its headers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExplorationEvent } from '@/lib/contract/events';
import { historyLineOf, SNAPSHOT_SEQ_HEADER } from '@/lib/contract/run';
import { openSnapshot, readHistory, RefusedRead } from './run-reads';

const LOG: ExplorationEvent[] = Array.from(
  { length: 40 },
  (_, i) => ({ runId: 'r', seq: i + 1, ts: i, type: 'node.created', payload: { text: `thought é ${i + 1}` } }) as never,
);

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void;

/** A loopback server answering with `handler`; the page's relative addresses are sent to it. */
async function serve(handler: Handler): Promise<{ asked: URL[] }> {
  const asked: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    asked.push(url);
    handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => realFetch(`${base}${input}`, init));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => server.closeAllConnections());
  return { asked };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The log's NDJSON for (after, until], as the server writes it. */
const ndjson = (url: URL) => {
  const after = Number(url.searchParams.get('after'));
  const until = Number(url.searchParams.get('until'));
  return LOG.filter((e) => e.seq > after && e.seq <= until)
    .map((e) => `${JSON.stringify(historyLineOf(e))}\n`)
    .join('');
};

async function read(until: number, after = 0) {
  const got: ExplorationEvent[] = [];
  await readHistory({
    runId: 'r',
    after,
    until,
    signal: new AbortController().signal,
    onEvents: (events) => got.push(...events),
    delayMs: () => 1,
  });
  return got;
}

describe('readHistory', () => {
  it('reads the range whole and in order, however the server cuts its bytes', async () => {
    await serve((_req, res, url) => {
      const bytes = Buffer.from(ndjson(url));
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // pieces of 13 bytes: lines and even characters (é) cut in two
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return void res.end();
        res.write(bytes.subarray(at, (at += 13)), next);
      };
      next();
    });
    expect(await read(40)).toEqual(LOG);
    expect(await read(30, 10)).toEqual(LOG.slice(10, 30));
  });

  it('asks again from the last event received after a failure or an answer that breaks off mid-line', async () => {
    let answers = 0;
    const { asked } = await serve((_req, res, url) => {
      answers += 1;
      if (answers === 1) {
        res.writeHead(503).end('restarting');
        return;
      }
      const text = ndjson(url);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (answers === 2) res.write(text.slice(0, Math.floor(text.length / 2)), () => res.destroy());
      else res.end(text);
    });
    const got = await read(40);
    expect(got).toEqual(LOG); // each event once
    expect(asked.map((u) => u.searchParams.get('after'))).toEqual(['0', '0', asked[2]?.searchParams.get('after')]);
    expect(Number(asked[2]?.searchParams.get('after'))).toBeGreaterThan(0);
  });

  it('stops on a refusal, saying what the server said', async () => {
    const { asked } = await serve((_req, res) => {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'this link opens one run only' }));
    });
    const refused = await read(40).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedRead);
    expect(refused).toMatchObject({ status: 403, message: 'this link opens one run only' });
    expect(asked).toHaveLength(1);
  });

  it('ends when the log ends before the range does', async () => {
    const { asked } = await serve((_req, res, url) => {
      res.writeHead(200).end(ndjson(url));
    });
    expect(await read(60)).toEqual(LOG);
    expect(asked).toHaveLength(2); // the second answer brought nothing: not asked a third time
  });
});

describe('openSnapshot', () => {
  it("knows the tree's seq from the headers, before the tree has arrived", async () => {
    let finish: () => void = () => {};
    await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', [SNAPSHOT_SEQ_HEADER]: '40' });
      const text = JSON.stringify({ runId: 'r', lastSeq: 40 });
      res.write(text.slice(0, 5));
      finish = () => res.end(text.slice(5));
    });
    const opened = await openSnapshot('r');
    expect(opened.seq).toBe(40);
    let arrived = false;
    void opened.arrived.then(() => (arrived = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrived).toBe(false); // the history waits for the whole tree, not its first piece
    finish();
    await opened.arrived;
    expect(await opened.tree).toEqual({ runId: 'r', lastSeq: 40 });
  });

  it('a tree that is not JSON fails the tree, after its bytes have arrived', async () => {
    await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', [SNAPSHOT_SEQ_HEADER]: '3' });
      res.end('{"runId": "r", cut');
    });
    const opened = await openSnapshot('r');
    await opened.arrived;
    await expect(opened.tree).rejects.toThrow(SyntaxError);
  });
});
