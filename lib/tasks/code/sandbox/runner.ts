/**
 * One test file run as its own limited child process: node with the permission model (reads and writes inside the
 * sandbox folder only; no child processes, workers or native addons), a V8 heap limit, a clean environment (PATH
 * only: never the server's, which holds API keys), stdin closed, output capped while read, in its own process group
 * killed with SIGKILL at the deadline or on abort, and, where `unshare -n` works, in an empty network namespace.
 * Also the TAP parser for node:test's results. Not responsible for compiling the tests (typecheck.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { TestResult } from '../types';

/**
 * A child's whole environment: PATH and nothing else, so no key of the server's reaches it (Next's types declare
 * NODE_ENV as always set: the child gets none).
 */
const pathOnly = () =>
  ({ PATH: process.env.PATH ?? '/usr/bin:/bin' }) as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv;

let networkIsolation: boolean | null = null;

/** Whether `unshare -n` can make an empty network namespace here (root, or user namespaces allowed); probed once. */
export function canIsolateNetwork(): boolean {
  if (networkIsolation === null) {
    const probe = spawnSync('unshare', ['-n', 'true'], {
      stdio: 'ignore',
      timeout: 5_000,
      env: pathOnly(),
    });
    networkIsolation = probe.status === 0;
  }
  return networkIsolation;
}

/** Keeps the first and last `limit` characters of a stream as it is read, counting what was dropped between. */
export class CappedText {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    if (this.head.length < this.limit) {
      const room = this.limit - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === '') return;
    this.tail += chunk;
    if (this.tail.length > this.limit) {
      this.dropped += this.tail.length - this.limit;
      this.tail = this.tail.slice(-this.limit);
    }
  }

  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[... ${this.dropped} characters cut ...]\n${this.tail}`;
  }
}

/** A text's head and tail within about `max` characters, marking what was cut. */
export function trimMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters cut ...]\n${text.slice(-half)}`;
}

export interface ChildRun {
  /** Exit code, null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
  /** Why it could not start (spawn error), else null. */
  startError: string | null;
}

export interface ChildRequest {
  /** The sandbox folder: the child's cwd, and the only place it may read or write. */
  root: string;
  /** The JavaScript test file (absolute, inside root). */
  file: string;
  timeMs: number;
  memoryMb: number;
  signal?: AbortSignal;
}

/** Output kept per stream while reading (head and tail each). */
const STREAM_CAP = 64 * 1024;

function permissionFlags(root: string): string[] {
  const allowed = process.allowedNodeEnvironmentFlags;
  // Node 22.13+ calls it --permission; Node 20 only knows the experimental name
  const permission = allowed.has('--permission') ? '--permission' : '--experimental-permission';
  const quiet = allowed.has('--disable-warning') ? ['--disable-warning=ExperimentalWarning'] : [];
  return [permission, `--allow-fs-read=${root}`, `--allow-fs-write=${root}`, ...quiet];
}

/** Runs `file` with node under the limits; resolves when the child has exited (killed or not); rejects on abort. */
export function runChild(request: ChildRequest): Promise<ChildRun> {
  request.signal?.throwIfAborted();
  const args = [
    ...permissionFlags(request.root),
    `--max-old-space-size=${request.memoryMb}`,
    '--test-reporter=tap',
    request.file,
  ];
  const [command, argv] = canIsolateNetwork()
    ? ['unshare', ['-n', process.execPath, ...args]]
    : [process.execPath, args];
  return new Promise<ChildRun>((resolve, reject) => {
    const output = new CappedText(STREAM_CAP);
    const errors = new CappedText(STREAM_CAP);
    let timedOut = false;
    let aborted = false;
    let startError: string | null = null;
    const child = spawn(command, argv as string[], {
      cwd: request.root,
      env: pathOnly(),
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group, so whatever it started dies with it
      detached: true,
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => errors.push(chunk));
    child.on('error', (error) => {
      startError = error.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (aborted) {
        reject(request.signal?.reason);
        return;
      }
      const stderr = errors.text();
      resolve({
        code,
        signal,
        timedOut,
        output: output.text() + (stderr ? `\n${stderr}` : ''),
        startError,
      });
    });
  });
}

const TEST_POINT = /^( *)(ok|not ok) \d+ - (.*?)(?: # (?:SKIP|TODO)\b.*)?$/;
const SUBTEST = /^( *)# Subtest: (.*)$/;

/** TAP's escapes in a test name (node:test writes `\#` and `\\`). */
const unescapeName = (name: string) => name.replace(/\\(.)/g, '$1');

/**
 * node:test's TAP as one result per test, suites left out (a test point followed by a deeper one is a suite), a
 * nested test named with its suites ("range > steps by two").
 */
export function parseTap(tap: string, file: string): TestResult[] {
  const results: TestResult[] = [];
  const names: string[] = [];
  let previousDepth = -1;
  const lines = tap.split('\n');
  const points: { depth: number; name: string; passed: boolean; suite: boolean }[] = [];
  for (const line of lines) {
    const subtest = SUBTEST.exec(line);
    if (subtest) {
      const depth = Math.floor((subtest[1] ?? '').length / 4);
      names.length = depth;
      names[depth] = unescapeName(subtest[2] ?? '');
      continue;
    }
    const point = TEST_POINT.exec(line);
    if (!point) continue;
    const depth = Math.floor((point[1] ?? '').length / 4);
    const name = [...names.slice(0, depth), unescapeName(point[3] ?? '')].join(' > ');
    points.push({ depth, name, passed: point[2] === 'ok', suite: previousDepth > depth });
    previousDepth = depth;
  }
  for (const point of points) if (!point.suite) results.push({ file, name: point.name, passed: point.passed });
  return results;
}
