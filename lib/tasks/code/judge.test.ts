/**
 * The code task's rule on a sandbox report against the base's (task.ts judge) and its diff summary (diffStat),
 * without running a sandbox: the sandboxed runs are task.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { diffStat, formatDiffStat, judge } from './task';
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

describe('diffStat', () => {
  it('counts files and the lines each hunk adds and removes, not the file headers', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,3 +1,3 @@',
      ' keep',
      '--- a line that starts with dashes',
      '+++ a line that starts with pluses',
      ' keep',
      '--- /dev/null',
      '+++ b/src/new.ts',
      '@@ -0,0 +1,2 @@',
      '+one',
      '+two',
    ].join('\n');
    expect(diffStat(diff)).toEqual({ files: 2, added: 3, removed: 1 });
    expect(formatDiffStat(diffStat(diff))).toBe('2 files changed (+3 \u22121)');
  });
});
