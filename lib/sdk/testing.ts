/**
 * Test support for lib/sdk (tests only): a real HTTP server on loopback that speaks the ingest contract
 * (lib/contract/ingest.ts) the way the production server does where the SDK can tell: numbered items stored once
 * (a retry is counted as duplicates), a gap or a different item at a stored number is a 409 with expectedSeq, an item
 * about an unknown parent is a 400 naming it and stores nothing, a finished run is closed, commands are long-polled and
 * answered by ack items. It can also misbehave on purpose: be down (connections cut), answer with a status, or store a
 * batch and lose the answer. Not the production server (lib/server/ingest): it checks nothing else.
 * Also: a quiet client of it, the README's sample program, and how to run a .ts file with the repository's tsx.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { BreakpointHit } from '../contract/breakpoints';
import type { IngestCommand } from '../contract/ingest';
import type { SteerKind } from '../contract/vocabulary';
import { Arborist, type ArboristOptions, type ArboristWarning } from './index';

export interface StoredItem {
  seq: number;
  [key: string]: unknown;
}

export interface FakeRun {
  id: string;
  create: Record<string, unknown>;
  items: StoredItem[];
  status: 'running' | 'finished';
  commands: (IngestCommand & { ack: { outcome: string; reason: string | null } | null })[];
  heartbeats: number;
  /** Node ids seen (the root's parent is null). */
  nodes: Set<string>;
}

export interface FakeRequest {
  method: string;
  path: string;
  /** Items in an append request. */
  items: number;
  /** The first item's seq in an append request. */
  firstSeq: number | null;
}

export interface FakeIngestServer {
  url: string;
  runs: Map<string, FakeRun>;
  requests: FakeRequest[];
  /** While true every connection is cut before an answer (a network error to the client). */
  down: boolean;
  /** The next append requests are answered with these statuses (and store nothing), one each. */
  failNext: number[];
  /** The next append request is stored, then its connection is cut (the client sees an error and retries). */
  loseNextAnswer: boolean;
  /** Items for which this returns a path (and optionally the message) are refused (400) with it, as a schema would. */
  refuse: ((item: StoredItem, index: number) => string | { path: string; message: string } | null) | null;
  /**
   * A command for the client, numbered as the server's log would (separate from the client's seqs); `hit` for the
   * pause the server asks for at a breakpoint (actor "breakpoint").
   */
  command(
    runId: string,
    kind: SteerKind,
    nodeId?: string | null,
    actor?: string,
    hit?: BreakpointHit | null,
  ): IngestCommand;
  heartbeatMs: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export async function startFakeIngestServer(options: { heartbeatMs?: number } = {}): Promise<FakeIngestServer> {
  const runs = new Map<string, FakeRun>();
  const waiters = new Map<string, (() => void)[]>();
  let nextCommandSeq = 1000;
  const wake = (runId: string) => {
    for (const w of waiters.get(runId)?.splice(0) ?? []) w();
  };

  const fake: FakeIngestServer = {
    url: '',
    runs,
    requests: [],
    down: false,
    failNext: [],
    loseNextAnswer: false,
    refuse: null,
    heartbeatMs: options.heartbeatMs ?? 60_000,
    command(runId, kind, nodeId = null, actor = 'ada', hit = null) {
      const run = runs.get(runId);
      if (!run) throw new Error(`no run ${runId}`);
      const command = { seq: ++nextCommandSeq, kind, nodeId, actor, ts: Date.now(), hit };
      run.commands.push({ ...command, ack: null });
      wake(runId);
      return command;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = req.method === 'POST' ? await readBody(req) : '';
    const parsed: unknown = body ? JSON.parse(body) : null;
    const items = (Array.isArray(parsed) ? parsed : []) as StoredItem[];
    fake.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      items: items.length,
      firstSeq: items[0]?.seq ?? null,
    });
    if (fake.down) {
      req.socket.destroy();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/ingest/runs') {
      const id = `run${runs.size + 1}`;
      runs.set(id, {
        id,
        create: parsed as Record<string, unknown>,
        items: [],
        status: 'running',
        commands: [],
        heartbeats: 0,
        nodes: new Set(),
      });
      return send(res, 201, { runId: id, url: `/runs/${id}`, nextSeq: 1, heartbeatMs: fake.heartbeatMs });
    }
    const match = /^\/api\/ingest\/runs\/([^/]+)\/(events|commands|heartbeat)$/.exec(url.pathname);
    const run = match ? runs.get(match[1]!) : undefined;
    if (!match || !run) return send(res, 404, { error: 'not-found', message: 'no such ingest run' });
    const route = match[2];

    if (route === 'heartbeat') {
      run.heartbeats++;
      return send(res, 200, { status: run.status, nextSeq: run.items.length + 1 });
    }

    if (route === 'commands') {
      const after = Number(url.searchParams.get('after') ?? 0);
      const waitMs = Math.min(Number(url.searchParams.get('waitMs') ?? 0), 2_000);
      const pending = () => run.commands.filter((c) => c.ack === null && c.seq > after).map(({ ack: _ack, ...c }) => c);
      if (pending().length === 0 && run.status === 'running' && waitMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          const list = waiters.get(run.id) ?? [];
          list.push(() => {
            clearTimeout(timer);
            resolve();
          });
          waiters.set(run.id, list);
        });
      }
      return send(res, 200, { commands: pending(), status: run.status });
    }

    // events
    const status = fake.failNext.shift();
    if (status !== undefined) return send(res, status, { error: 'failing', message: `told to answer ${status}` });
    let duplicates = 0;
    const fresh: StoredItem[] = [];
    const nodes = new Set(run.nodes);
    const issues: { path: string; message: string }[] = [];
    for (const [i, item] of items.entries()) {
      const expected = run.items.length + fresh.length + 1;
      if (item.seq < expected && item.seq <= run.items.length) {
        if (!same(run.items[item.seq - 1], item)) {
          return send(res, 409, {
            error: 'conflict',
            message: `item ${item.seq} differs`,
            expectedSeq: run.items.length + 1,
          });
        }
        duplicates++;
        continue;
      }
      if (item.seq !== expected) {
        return send(res, 409, { error: 'gap', message: `expected seq ${expected}`, expectedSeq: expected });
      }
      const refused = fake.refuse?.(item, i) ?? null;
      if (refused)
        issues.push(typeof refused === 'string' ? { path: refused, message: 'refused by the test' } : refused);
      if (item.op === 'node') {
        if (item.parent !== null && !nodes.has(item.parent as string)) {
          issues.push({ path: `items[${i}].parent`, message: `no node ${String(item.parent)} in this run` });
        }
        nodes.add(item.id as string);
      }
      fresh.push(item);
    }
    if (issues.length > 0) return send(res, 400, { error: 'invalid', message: 'invalid batch', issues });
    // as the production server: a repeated batch is answered as duplicates even once the run has ended
    if (fresh.length > 0 && run.status !== 'running') {
      return send(res, 409, { error: 'closed', message: 'the run has finished', expectedSeq: run.items.length + 1 });
    }
    run.items.push(...fresh);
    run.nodes = nodes;
    for (const item of fresh) {
      if (item.op === 'finish') run.status = 'finished';
      if (item.op === 'ack') {
        const command = run.commands.find((c) => c.seq === item.command);
        if (command) command.ack = { outcome: item.outcome as string, reason: (item.reason as string | null) ?? null };
      }
    }
    if (run.status === 'finished') wake(run.id);
    if (fake.loseNextAnswer) {
      fake.loseNextAnswer = false;
      req.socket.destroy();
      return;
    }
    return send(res, 200, {
      accepted: fresh.length,
      duplicates,
      nextSeq: run.items.length + 1,
      status: run.status,
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: 'bug', message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // long polls must not keep a finished test's server open
  server.closeIdleConnections?.();
  const close = fake.close;
  fake.close = () => {
    for (const id of waiters.keys()) wake(id);
    server.closeAllConnections?.();
    return close();
  };
  return fake;
}

/** Resolves when `check` holds, polling every 10 ms (for conditions the SDK reaches in the background). */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A client of `server` as the tests want one: quick batches and retries, no exit hook, warnings collected into
 * `warnings` (what a program would see on stderr).
 */
export function quietClient(
  server: FakeIngestServer,
  warnings: ArboristWarning[],
  options: Partial<ArboristOptions> = {},
): Arborist {
  return new Arborist({
    server: server.url,
    flushIntervalMs: 20,
    retryBaseMs: 5,
    retryMaxMs: 40,
    flushOnExit: false,
    onWarning: (w) => warnings.push(w),
    ...options,
  });
}

/** The SDK's package name, as the README's sample imports it (package.json's name). */
export const PACKAGE_NAME: string = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { name: string }
).name;

/** The README's sample program: its one TypeScript block that imports the package. */
export function readmeSample(): string {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const sample = blocks.filter((block) => block.includes(`from '${PACKAGE_NAME}'`));
  if (sample.length !== 1) throw new Error(`README.md has ${sample.length} TypeScript samples importing the package`);
  return sample[0]!;
}

/** `--import` for node to run TypeScript with the repository's tsx from any directory (a temp project has none). */
export const TSX_IMPORT: string = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The Python client's folder (its tests run python3 with it on PYTHONPATH). */
export const PYTHON_DIR = 'lib/sdk/python';

/** Runs python3 (a file with args, or a script on stdin with the client importable); resolves when it exits. */
export function python(args: string[], script?: string) {
  const child = spawn('python3', script ? ['-', ...args] : args, {
    env: { ...process.env, PYTHONPATH: PYTHON_DIR, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  if (script) child.stdin.end(script);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { done, out: () => stdout };
}
