/**
 * The code task's rule on a sandbox report against the base's (task.ts judge) and which test files a
 * change edits, without running a sandbox: the sandboxed runs are task.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { editedTests, judge } from './task';
import type { SandboxReport, TestResult } from './types';

function report(
  tests: [string, boolean][],
  over: Partial<SandboxReport['tests']> = {},
  diagnostics: string[] = [],
): SandboxReport {
  const results: TestResult[] = tests.map(([name, passed]) => ({ file: 'src/a.test.ts', name, passed }));
  return {
    typecheck: { ok: diagnostics.length === 0, diagnostics, ms: 1 },
    tests: {
      status: results.every((t) => t.passed) ? 'passed' : 'failed',
      results,
      output: '',
      ms: 1,
      ...over,
    },
  };
}

describe('judge', () => {
  const base = report([
    ['adds', true],
    ['clamps', false],
  ]);

  it('passes and answers when the type-check is clean and every test passes', () => {
    const verdict = judge(
      base,
      report([
        ['adds', true],
        ['clamps', true],
      ]),
    );
    expect(verdict).toMatchObject({ passed: true, isAnswer: true, summary: 'type-check clean; 2/2 tests pass' });
    expect(verdict.verdict).toBe('PASS: type-check clean; all 2 tests pass');
  });

  it('passes without answering when a test that failed at the base still fails', () => {
    expect(judge(base, base)).toMatchObject({ passed: true, isAnswer: false });
  });

  it('fails on a type error with the first diagnostic, even when the tests pass', () => {
    const diagnostics = ["src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.", 'x'];
    const verdict = judge(
      base,
      report(
        [
          ['adds', true],
          ['clamps', true],
        ],
        {},
        diagnostics,
      ),
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.verdict).toBe(`FAIL: type error: ${diagnostics[0]} (and 1 more)`);
  });

  it('fails naming a test that passed at the base and now fails, or has gone', () => {
    expect(
      judge(
        base,
        report([
          ['adds', false],
          ['clamps', true],
        ]),
      ).verdict,
    ).toBe('FAIL: 1 test that passed before now fails: adds (src/a.test.ts)');
    expect(judge(base, report([['clamps', true]])).passed).toBe(false);
  });

  it('fails when the tests time out or cannot start', () => {
    expect(judge(base, report([], { status: 'timed-out' })).verdict).toBe('FAIL: the tests ran past the time limit');
    expect(judge(base, report([], { status: 'error', output: '\nError: Cannot find module\n' })).verdict).toBe(
      'FAIL: the tests could not run: Error: Cannot find module',
    );
  });
});

describe('editedTests', () => {
  const before = { 'src/a.ts': 'a\n', 'src/a.test.ts': 't\n', 'src/b.test.ts': 'u\n' };

  it('names the test files a change edits or deletes, and nothing when only the code changes', () => {
    const tests = ['src/a.test.ts', 'src/b.test.ts'];
    expect(editedTests(tests, before, { ...before, 'src/a.ts': 'b\n' })).toEqual([]);
    expect(editedTests(tests, before, { ...before, 'src/a.test.ts': 'assert.ok(true)\n' })).toEqual(['src/a.test.ts']);
    const { 'src/b.test.ts': _gone, ...without } = before;
    expect(editedTests(tests, before, without)).toEqual(['src/b.test.ts']);
  });
});
