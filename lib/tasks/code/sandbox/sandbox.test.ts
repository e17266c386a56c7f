/**
 * The sandbox with real processes, no mocks: a type error fails with the compiler's words; tests pass and fail by
 * name; a test cannot write or read outside its folder, loop forever, wait forever, allocate without end or reach the
 * network; the folder is gone afterwards; an abort kills the run. Plus the TAP reader and the trace's wording.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ProjectFiles, SandboxReport } from '../types';
import { configureSandbox, traceOf, verifyInSandbox } from './index';
import { canIsolateNetwork, parseTap } from './runner';

const add = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';

/** A project of one module and one test file whose body is `body` (node:test and assert imported). */
function project(body: string, extra: ProjectFiles = {}): ProjectFiles {
  return {
    'src/add.ts': add,
    'src/add.test.ts': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import fs from 'node:fs';",
      "import { add } from './add';",
      'void fs;',
      'void assert;',
      'void add;',
      body,
    ].join('\n'),
    ...extra,
  };
}

const tests = ['src/add.test.ts'];

const others: string[] = [];
afterAll(() => {
  for (const folder of others) fs.rmSync(folder, { recursive: true, force: true });
});

/** The sandbox folder a test printed as `cwd=<path>` (the output shortens paths inside it, not the folder itself). */
const printedFolder = (report: SandboxReport) => /cwd=(\S+)/.exec(report.tests.output)?.[1];

describe('verifyInSandbox', () => {
  it('runs the tests and names each result; the temp folder is gone afterwards', async () => {
    const report = await verifyInSandbox({
      files: project(
        [
          "test('adds', () => { console.log('cwd=' + process.cwd()); assert.equal(add(1, 2), 3); });",
          "test('adds wrongly', () => { assert.equal(add(1, 2), 4); });",
        ].join('\n'),
      ),
      tests,
    });
    expect(report.typecheck).toMatchObject({ ok: true, diagnostics: [] });
    expect(report.tests.status).toBe('failed');
    expect(report.tests.results).toEqual([
      { file: 'src/add.test.ts', name: 'adds', passed: true },
      { file: 'src/add.test.ts', name: 'adds wrongly', passed: false },
    ]);
    expect(traceOf(report)).toMatch(/^type-check: clean\ntests: 1 passed, 1 failed \(adds wrongly\)\n/);
    expect(traceOf(report)).toContain('3 !== 4');
    const folder = printedFolder(report);
    expect(folder).toContain(`${path.sep}arborist-sandbox-`);
    expect(fs.existsSync(folder as string)).toBe(false);
  });

  it('fails a type error with the compiler message and skips the tests, unless asked to run them anyway', async () => {
    const files = project("test('adds', () => { assert.equal(add(1, 2), 3); });", {
      'src/add.ts': "export function add(a: number, b: number): number {\n  return 'a' + b;\n}\n",
    });
    const report = await verifyInSandbox({ files, tests });
    expect(report.typecheck.ok).toBe(false);
    expect(report.typecheck.diagnostics).toEqual([
      "src/add.ts(2,3): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
    expect(report.tests.status).toBe('skipped');
    expect(traceOf(report)).toBe(
      "type-check: 1 error\nsrc/add.ts(2,3): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
        'tests: skipped (not run: the type-check failed)',
    );
    const anyway = await verifyInSandbox({ files, tests, alwaysRunTests: true });
    expect(anyway.typecheck.ok).toBe(false);
    expect(anyway.tests.results).toEqual([{ file: 'src/add.test.ts', name: 'adds', passed: false }]);
  });

  it("uses the project's tsconfig.json compilerOptions when there is one, strict defaults otherwise", async () => {
    const loose = { 'src/loose.ts': 'export function twice(x) { return x * 2; }\n' };
    const strict = await verifyInSandbox({ files: project('', loose), tests: [] });
    expect(strict.typecheck.diagnostics.join('\n')).toContain(
      "error TS7006: Parameter 'x' implicitly has an 'any' type.",
    );
    const tsconfig = JSON.stringify({
      compilerOptions: { strict: false, target: 'ES2022', module: 'commonjs', esModuleInterop: true },
    });
    const configured = await verifyInSandbox({
      files: project('', { ...loose, 'tsconfig.json': tsconfig }),
      tests: [],
    });
    expect(configured.typecheck).toMatchObject({ ok: true, diagnostics: [] });
    expect(configured.tests.status).toBe('skipped');
  });

  it('refuses writes and reads outside its folder (the permission model)', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'arborist-elsewhere-'));
    others.push(elsewhere);
    const target = path.join(elsewhere, 'escaped.txt');
    fs.writeFileSync(path.join(elsewhere, 'secret.txt'), 'secret');
    const report = await verifyInSandbox({
      files: project(
        [
          `test('writes outside', () => { fs.writeFileSync(${JSON.stringify(target)}, 'x'); });`,
          `test('reads outside', () => { fs.readFileSync(${JSON.stringify(path.join(elsewhere, 'secret.txt'))}); });`,
          "test('writes inside', () => { fs.writeFileSync('inside.txt', 'x'); assert.equal(fs.readFileSync('inside.txt', 'utf8'), 'x'); });",
        ].join('\n'),
      ),
      tests,
    });
    expect(fs.existsSync(target)).toBe(false);
    expect(report.tests.results.map((r) => [r.name, r.passed])).toEqual([
      ['writes outside', false],
      ['reads outside', false],
      ['writes inside', true],
    ]);
    expect(report.tests.output).toContain('ERR_ACCESS_DENIED');
  });

  it('lets no test start a process, and the compiler read nothing of the server outside the project', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'arborist-elsewhere-'));
    others.push(elsewhere);
    const secret = path.join(elsewhere, 'secret.ts');
    fs.writeFileSync(secret, 'export const hidden: number = SERVER_SECRET_VALUE;\n');
    const report = await verifyInSandbox({
      files: project(
        [
          "import { execSync } from 'node:child_process';",
          "test('starts a process', () => { execSync('echo hi'); });",
        ].join('\n'),
        {
          'src/peek.ts': `/// <reference path=${JSON.stringify(secret)} />\nimport { hidden } from ${JSON.stringify(secret.replace(/\.ts$/, ''))};\nexport const seen = hidden;\n`,
        },
      ),
      tests,
      alwaysRunTests: true,
    });
    const diagnostics = report.typecheck.diagnostics.join('\n');
    expect(diagnostics).not.toContain('SERVER_SECRET_VALUE');
    expect(diagnostics).toMatch(/error TS6053: File '.*secret\.ts' not found/);
    expect(diagnostics).toMatch(/error TS2307: Cannot find module/);
    expect(report.tests.results).toEqual([{ file: 'src/add.test.ts', name: 'starts a process', passed: false }]);
    expect(report.tests.output).toContain('ERR_ACCESS_DENIED');
  });

  it('kills a test that loops forever at the time limit', async () => {
    const report = await verifyInSandbox({
      files: project("test('spins', () => { for (;;) {} });"),
      tests,
      limits: { testTimeMs: 1_500 },
    });
    expect(report.tests.status).toBe('timed-out');
    expect(traceOf(report)).toContain('tests: timed out after 1.5 s');
  });

  it('kills a test that never ends (a pending interval)', async () => {
    const report = await verifyInSandbox({
      files: project("test('waits', () => { setInterval(() => {}, 1_000); });"),
      tests,
      limits: { testTimeMs: 1_500 },
    });
    expect(report.tests.status).toBe('timed-out');
  });

  it('fails a test that allocates without end on the memory limit', async () => {
    const report = await verifyInSandbox({
      files: project(
        "test('hoards', () => { const keep: number[][] = []; for (;;) keep.push(new Array(1e5).fill(1)); });",
      ),
      tests,
      limits: { memoryMb: 48, testTimeMs: 15_000 },
    });
    expect(report.tests.status).toBe('failed');
    expect(report.tests.output).toMatch(/heap out of memory/);
  });

  it.skipIf(!canIsolateNetwork())('gives the tests no network', async () => {
    const server = net.createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const report = await verifyInSandbox({
        files: project(
          [
            "import net from 'node:net';",
            `test('connects', async () => {`,
            `  await new Promise<void>((resolve, reject) => {`,
            `    const socket = net.connect(${port}, '127.0.0.1', () => { socket.end(); resolve(); });`,
            `    socket.on('error', reject);`,
            '  });',
            '});',
          ].join('\n'),
        ),
        tests,
      });
      expect(report.tests.results).toEqual([{ file: 'src/add.test.ts', name: 'connects', passed: false }]);
      expect(report.tests.output).toMatch(/ENETUNREACH|ECONNREFUSED/);
    } finally {
      server.close();
    }
  });

  it('kills the run and removes the folder when aborted', async () => {
    const marker = `abort-me-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const running = verifyInSandbox(
      {
        files: {
          ...project(''),
          [`src/${marker}.test.ts`]: "import { test } from 'node:test';\ntest('spins', () => { for (;;) {} });\n",
        },
        tests: [`src/${marker}.test.ts`],
        limits: { testTimeMs: 60_000 },
      },
      controller.signal,
    );
    const outcome = running.catch((error: unknown) => error);
    const processLine = () =>
      execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .find((line) => line.includes(`${marker}.test.js`) && !line.includes('unshare'));
    const line = await vi.waitFor(
      () => {
        const found = processLine();
        if (!found) throw new Error('the test process has not started yet');
        return found;
      },
      { timeout: 15_000, interval: 100 },
    );
    const folder = /(\S*arborist-sandbox-[^/\s]+)/.exec(line)?.[1];
    expect(folder).toBeDefined();
    controller.abort(new Error('stopped by the test'));
    expect(await outcome).toEqual(new Error('stopped by the test'));
    expect(processLine()).toBeUndefined();
    expect(fs.existsSync(folder as string)).toBe(false);
  });

  it('runs one verification at a time at concurrency 1; an aborted waiter leaves the queue without running', async () => {
    configureSandbox({ concurrency: 1 });
    try {
      const stamped = project(
        "test('stamps', () => { console.log(`t0=${Date.now()}`); for (let i = 0; i < 1e7; i++); console.log(`t1=${Date.now()}`); });",
      );
      const waiter = new AbortController();
      const order: string[] = [];
      const first = verifyInSandbox({ files: stamped, tests }).then((r) => (order.push('first'), r));
      const aborted = verifyInSandbox({ files: stamped, tests }, waiter.signal).catch(
        (e: unknown) => (order.push('aborted'), e),
      );
      const second = verifyInSandbox({ files: stamped, tests }).then((r) => (order.push('second'), r));
      waiter.abort(new Error('not needed'));
      const [a, b, reason] = await Promise.all([first, second, aborted]);
      expect(reason).toEqual(new Error('not needed'));
      expect(order).toEqual(['aborted', 'first', 'second']);
      const stamps = (r: SandboxReport) =>
        ['t0', 't1'].map((k) => Number(new RegExp(`${k}=(\\d+)`).exec(r.tests.output)?.[1]));
      const [a0, a1] = stamps(a);
      const [b0] = stamps(b);
      expect(a0).toBeLessThanOrEqual(a1 as number);
      expect(b0).toBeGreaterThanOrEqual(a1 as number);
    } finally {
      configureSandbox({ concurrency: os.availableParallelism() });
    }
  });

  it('keeps the trace readable: long output trimmed to its head and tail', async () => {
    const report = await verifyInSandbox({
      files: project(
        "test('talks', () => { console.log('HEAD-' + 'x'.repeat(200_000) + '-TAIL'); assert.fail('and fails'); });",
      ),
      tests,
    });
    const trace = traceOf(report);
    expect(trace.length).toBeLessThan(4_200);
    expect(trace).toMatch(/^type-check: clean\ntests: 0 passed, 1 failed \(talks\)\n/);
    expect(trace).toContain('HEAD-');
    expect(trace).toContain('characters cut');
    expect(trace).toContain('# fail 1');
  });

  it('refuses file names that leave the folder', async () => {
    for (const name of ['../escape.ts', '/etc/escape.ts', 'src/../../escape.ts']) {
      await expect(verifyInSandbox({ files: { [name]: 'x' }, tests: [] })).rejects.toThrow(/refused file name/);
    }
  });
});

describe('parseTap', () => {
  it("reads node:test's TAP: one result per test, suites left out, nested names joined, escapes undone", () => {
    const tap = [
      'TAP version 13',
      '# Subtest: adds',
      'ok 1 - adds',
      '  ---',
      '  ...',
      '# Subtest: range',
      '    # Subtest: steps \\# by two',
      '    not ok 1 - steps \\# by two',
      '    # Subtest: skipped one',
      '    ok 2 - skipped one # SKIP',
      '    1..2',
      'not ok 2 - range',
      '1..2',
    ].join('\n');
    expect(parseTap(tap, 'a.test.ts')).toEqual([
      { file: 'a.test.ts', name: 'adds', passed: true },
      { file: 'a.test.ts', name: 'range > steps # by two', passed: false },
      { file: 'a.test.ts', name: 'range > skipped one', passed: true },
    ]);
  });
});
