import { parseDiff } from 'react-diff-view';
import { describe, expect, it } from 'vitest';
import { asGitDiff, codeVerdict, diffSize, languageOf, nodeCodeVerdict, traceLines } from './code-change';

const failed = (trace: string) => ({ passed: false, trace });

describe('codeVerdict', () => {
  it('reads the verdict from the first line of the trace, whatever follows', () => {
    expect(codeVerdict({ passed: true, trace: 'passed: 4 tests pass' })).toBe('passed');
    expect(codeVerdict(failed('type error: 1 diagnostic\nsrc/a.ts(3,5): error TS2322: tests mentioned here'))).toBe(
      'type-error',
    );
    expect(codeVerdict(failed('the type-check failed\n...'))).toBe('type-error');
    expect(codeVerdict(failed('src/a.ts(3,5): error TS2322: Type ...'))).toBe('type-error');
    expect(codeVerdict(failed('tests failed: 1 of 4\nnot ok 2 - clamps'))).toBe('tests-failed');
    expect(codeVerdict(failed('tests timed out after 5000 ms'))).toBe('tests-failed');
    expect(codeVerdict(failed('the diff does not apply: hunk 1 of src/a.ts'))).toBe('does-not-apply');
    expect(codeVerdict(failed('\n\ndiff could not apply to src/a.ts (type error later)'))).toBe('does-not-apply');
    expect(codeVerdict(failed('something else went wrong'))).toBe('failed');
    // the code task's own first lines (lib/tasks/code/task.ts)
    expect(codeVerdict(failed("FAIL: type error: src/a.ts(3,5): error TS2322: Type 'string' is not …"))).toBe(
      'type-error',
    );
    expect(codeVerdict(failed('FAIL: the tests ran past the time limit'))).toBe('tests-failed');
    expect(codeVerdict(failed('FAIL: the tests could not run: node exited'))).toBe('tests-failed');
    expect(codeVerdict(failed('FAIL: 1 test that passed before now fails: clamps above'))).toBe('tests-failed');
    expect(codeVerdict(failed('FAIL: the diff does not apply: src/range.ts hunk 1 does not match'))).toBe(
      'does-not-apply',
    );
  });

  it('marks only code changes that were checked', () => {
    const branch = (type: 'code_change' | 'response') => ({
      thought: 't',
      proposedAction:
        type === 'code_change' ? { type, diff: '' } : ({ type, content: 'x' } as { type: 'response'; content: string }),
      expectedOutcome: '',
      confidence: 0.5,
    });
    expect(nodeCodeVerdict({ branch: branch('code_change'), verification: failed('tests failed') })).toBe(
      'tests-failed',
    );
    expect(nodeCodeVerdict({ branch: branch('code_change'), verification: null })).toBeNull();
    expect(nodeCodeVerdict({ branch: branch('response'), verification: failed('tests failed') })).toBeNull();
  });
});

describe('asGitDiff', () => {
  const jsdiff = [
    'Index: src/range.ts',
    '===================================================================',
    '--- src/range.ts\t2020-01-01',
    '+++ src/range.ts\t2020-01-02',
    '@@ -1,2 +1,2 @@',
    '-export const a = 1;',
    '+export const a = 2;',
    ' export const b = 3;',
    '--- /dev/null',
    '+++ b/src/new.ts',
    '@@ -0,0 +1,1 @@',
    '+export const c = 4;',
    '',
  ].join('\n');

  it('gives a plain unified diff the git headers the diff view needs, one file each, new files marked', () => {
    const files = parseDiff(asGitDiff(jsdiff));
    expect(files.map((f) => [f.type, f.newPath])).toEqual([
      ['modify', 'src/range.ts'],
      ['add', 'src/new.ts'],
    ]);
    expect(files[0]?.hunks[0]?.changes.map((c) => c.type)).toEqual(['delete', 'insert', 'normal']);
  });

  it('leaves a git diff as it is, deleted files included', () => {
    const git = [
      'diff --git a/src/a.ts b/src/a.ts',
      'index 1111111..2222222 100644',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      'diff --git a/src/old.ts b/src/old.ts',
      'deleted file mode 100644',
      '--- a/src/old.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-gone',
      '',
    ].join('\n');
    expect(asGitDiff(git)).toBe(git);
    expect(parseDiff(asGitDiff(git)).map((f) => f.type)).toEqual(['modify', 'delete']);
  });

  it('counts the lines a diff adds and removes, headers left out', () => {
    expect(diffSize(jsdiff)).toEqual({ added: 2, removed: 1 });
  });
});

describe('traceLines', () => {
  it("tones the trace's lines after the verdict: diagnostics, failing and passing tests, the rest plain", () => {
    const trace = [
      'type error: 1 diagnostic',
      "src/range.ts(4,3): error TS2322: Type 'string' is not assignable to type 'number'.",
      'ok 1 - clamps below',
      'not ok 2 - clamps above',
      '✖ keeps the middle',
      '# pass 1',
      'a note',
    ].join('\n');
    expect(traceLines(trace).map((l) => l.tone)).toEqual(['diagnostic', 'pass', 'fail', 'fail', 'pass', 'plain']);
    expect(traceLines('passed')).toEqual([]);
    // the sandbox's own summary lines (lib/tasks/code/sandbox: traceOf)
    const sandbox = [
      'FAIL: 1 test that passed before now fails: pager',
      'type-check: clean',
      'tests: 2 passed, 1 failed (pager)',
      'type-check: 2 errors',
      'tests: timed out after 5 s (0 passed, 0 failed)',
      'tests: skipped (the type-check failed)',
      'tests: 3 passed',
    ].join('\n');
    expect(traceLines(sandbox).map((l) => l.tone)).toEqual(['pass', 'fail', 'fail', 'fail', 'plain', 'pass']);
  });
});

describe('languageOf', () => {
  it('highlights TypeScript, JavaScript and JSON files by extension, anything else as plain text', () => {
    expect(
      ['src/a.ts', 'b.mts', 'c.tsx', 'd.js', 'e.JSX', 'package.json', 'README.md', 'Makefile'].map(languageOf),
    ).toEqual(['typescript', 'typescript', 'tsx', 'javascript', 'jsx', 'json', null, null]);
  });
});
