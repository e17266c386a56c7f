/**
 * The sandbox's front door: verifies a project's files in a fresh temporary folder: the type-check in a worker
 * thread (typecheck.ts), then each test file in a limited child process (runner.ts), the folder removed afterwards
 * whatever happened (folder.ts). A pool bounds how many verifications run at once (configureSandbox; the server
 * sets it from ARBORIST_VERIFY_CONCURRENCY). traceOf turns a report into the verification trace people and models
 * read. What the sandbox stops and what it does not: lib/tasks/code/README.md, "Sandbox".
 * Not responsible for applying diffs (../diff.ts) or judging what a report means for a node (../task.ts).
 */
import os from 'node:os';
import path from 'node:path';
import type { SandboxLimits, SandboxReport, SandboxRequest, TestResult } from '../types';
import { OUT_DIR, checkedName, makeFolder, removeFolder, writeProject } from './folder';
import { canIsolateNetwork, parseTap, runChild, trimMiddle } from './runner';
import { CheckTimeout, runCheck, setWarmWorkers } from './typecheck';

export const DEFAULT_SANDBOX_LIMITS: Required<SandboxLimits> = {
  testTimeMs: 10_000,
  memoryMb: 256,
  typecheckTimeMs: 30_000,
};

/** The report's test output is trimmed to this (head and tail kept). */
const OUTPUT_MAX = 6_000;

/** A counting semaphore: verifications beyond the limit wait their turn (an aborted waiter leaves the queue). */
class Slots {
  private running = 0;
  private readonly waiting: { grant: () => void }[] = [];
  constructor(public limit: number) {}

  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.pump();
    };
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running += 1;
          resolve(release);
        },
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  pump(): void {
    while (this.running < this.limit && this.waiting.length > 0) this.waiting.shift()?.grant();
  }
}

const slots = new Slots(os.availableParallelism());
setWarmWorkers(slots.limit);

/** How many verifications run at once (default: os.availableParallelism()); the server calls it at start. */
export function configureSandbox(options: { concurrency?: number }): void {
  if (options.concurrency === undefined) return;
  slots.limit = Math.max(1, Math.floor(options.concurrency));
  setWarmWorkers(slots.limit);
  slots.pump();
}

/**
 * Starts a type-check worker and has it parse lib.d.ts and @types/node, so the first real verification is not the
 * cold one (bench:sandbox measures the difference). For a caller about to verify (a code run starting); never throws.
 */
export async function warmSandbox(): Promise<void> {
  await verifyInSandbox({ files: { 'warm.ts': 'export {};\n' }, tests: [] }).catch(() => undefined);
}

let networkNoteGiven = false;

/** Said once per process in a report's output when the tests could reach the network. */
function networkNote(): string {
  if (canIsolateNetwork() || networkNoteGiven) return '';
  networkNoteGiven = true;
  return 'note: `unshare -n` does not work on this machine: the tests were run without network isolation.\n';
}

const TS_FILE = /\.(ts|tsx|mts|cts)$/;

/** Verifies `request.files` in a fresh temporary folder; the signal kills the work under way. */
export async function verifyInSandbox(request: SandboxRequest, signal?: AbortSignal): Promise<SandboxReport> {
  const names = Object.keys(request.files).map(checkedName);
  for (const test of request.tests) {
    if (request.files[checkedName(test)] === undefined)
      throw new Error(`sandbox: test file ${test} is not in the project`);
    if (!TS_FILE.test(test) || /\.d\.[mc]?ts$/.test(test))
      throw new Error(`sandbox: test file ${test} is not TypeScript`);
  }
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...request.limits };
  const release = await slots.acquire(signal);
  let root: string | null = null;
  try {
    root = await makeFolder();
    signal?.throwIfAborted();
    await writeProject(root, request.files);
    signal?.throwIfAborted();
    return await verifyIn(root, names, request, limits, signal);
  } finally {
    if (root) await removeFolder(root);
    release();
  }
}

async function verifyIn(
  root: string,
  names: string[],
  request: SandboxRequest,
  limits: Required<SandboxLimits>,
  signal?: AbortSignal,
): Promise<SandboxReport> {
  const outDir = path.join(root, OUT_DIR);
  const started = Date.now();
  let typecheck: SandboxReport['typecheck'];
  let emitted = false;
  let emitErrors: string[] = [];
  try {
    const result = await runCheck(
      { root, files: names, outDir, typecheck: true, emit: request.alwaysRunTests ? 'always' : 'if-clean' },
      limits.typecheckTimeMs,
      signal,
    );
    typecheck = { ok: result.diagnostics.length === 0, diagnostics: result.diagnostics, ms: result.ms };
    emitted = result.emitted;
    emitErrors = result.emitErrors;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const message = error instanceof CheckTimeout ? error.message : (error as Error).message;
    typecheck = { ok: false, diagnostics: [message], ms: Date.now() - started };
  }
  const skipped = (output: string): SandboxReport => ({
    typecheck,
    tests: { status: 'skipped', results: [], output, ms: 0, timeLimitMs: limits.testTimeMs },
  });
  if (request.tests.length === 0) return skipped('no test files to run');
  if (!emitted) return skipped('not run: the type-check failed');
  return { typecheck, tests: await runTests(root, outDir, request.tests, limits, emitErrors, signal) };
}

async function runTests(
  root: string,
  outDir: string,
  tests: string[],
  limits: Required<SandboxLimits>,
  emitErrors: string[],
  signal?: AbortSignal,
): Promise<SandboxReport['tests']> {
  const started = Date.now();
  const deadline = started + limits.testTimeMs;
  const results: TestResult[] = [];
  const outputs: string[] = [networkNote(), ...emitErrors.map((e) => `transpile: ${e}\n`)].filter(Boolean);
  let status: SandboxReport['tests']['status'] = 'passed';
  for (const test of tests) {
    const left = deadline - Date.now();
    if (left <= 0) {
      status = 'timed-out';
      break;
    }
    const run = await runChild({
      root,
      file: path.join(outDir, test.replace(TS_FILE, '.js')),
      timeMs: left,
      memoryMb: limits.memoryMb,
      signal,
    });
    results.push(...parseTap(run.output, test));
    outputs.push(`# ${test}\n${readable(run.output, root, outDir)}`);
    if (run.startError) {
      status = 'error';
      outputs.push(`could not start the test process: ${run.startError}`);
      break;
    }
    if (run.timedOut) {
      status = 'timed-out';
      outputs.push(`killed: the tests ran past the ${seconds(limits.testTimeMs)} limit`);
      break;
    }
    if (run.code !== 0) {
      status = 'failed';
      if (run.signal) outputs.push(`the test process was killed by ${run.signal}`);
    }
  }
  return {
    status,
    results,
    output: trimMiddle(outputs.join('\n').trim(), OUTPUT_MAX),
    ms: Date.now() - started,
    timeLimitMs: limits.testTimeMs,
  };
}

/**
 * The child's output as a person reads it: paths relative to the project (the temp folder's name says nothing),
 * without TAP's timings or stack lines inside Node itself.
 */
function readable(output: string, root: string, outDir: string): string {
  return output
    .replaceAll(`${outDir}/`, '')
    .replaceAll(`${root}/`, '')
    .replace(/^ *(?:# )?duration_ms:? .*\n/gm, '')
    .replace(/^ +(?:async )?\S.*\(?node:(?:internal\/|async_hooks).*\n/gm, '');
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** About how long a trace may be: the scratchpad carries one per step. */
const TRACE_MAX = 4_000;

/** The report as a verification trace: the compiler's diagnostics and the test output, trimmed. */
export function traceOf(report: SandboxReport): string {
  const lines: string[] = [];
  const { typecheck, tests } = report;
  if (typecheck.ok) lines.push('type-check: clean');
  else {
    const count = typecheck.diagnostics.length;
    lines.push(`type-check: ${count} error${count === 1 ? '' : 's'}`);
    lines.push(trimMiddle(typecheck.diagnostics.join('\n'), TRACE_MAX / 2));
  }
  const passed = tests.results.filter((r) => r.passed).length;
  const failed = tests.results.filter((r) => !r.passed);
  const counts = `${passed} passed, ${failed.length} failed`;
  switch (tests.status) {
    case 'skipped':
      lines.push(`tests: skipped (${tests.output})`);
      return lines.join('\n');
    case 'passed':
      lines.push(`tests: ${passed} passed`);
      return lines.join('\n');
    case 'timed-out':
      lines.push(
        `tests: timed out after ${seconds(tests.timeLimitMs ?? DEFAULT_SANDBOX_LIMITS.testTimeMs)} (${counts})`,
      );
      break;
    case 'error':
      lines.push(`tests: could not run (${counts})`);
      break;
    case 'failed':
      lines.push(
        failed.length > 0
          ? `tests: ${counts} (${failed
              .slice(0, 10)
              .map((r) => r.name)
              .join(', ')}${failed.length > 10 ? ', ...' : ''})`
          : `tests: failed (${counts}; the test process exited with an error)`,
      );
      break;
  }
  const used = lines.join('\n').length;
  lines.push(trimMiddle(tests.output, Math.max(500, TRACE_MAX - used)));
  return lines.join('\n');
}
