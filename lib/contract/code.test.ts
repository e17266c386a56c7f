import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEST_GLOB,
  codeGoalError,
  formatCodeGoal,
  formatCodeOutput,
  goalNamesFolder,
  parseCodeGoal,
  parseCodeOutput,
  patchFileName,
} from './code';

describe('the code goal', () => {
  it('reads a bench project, with or without its own request replaced', () => {
    expect(parseCodeGoal('project: bench/clamp-range')).toEqual({
      ok: true,
      goal: { project: { kind: 'bench', id: 'clamp-range' }, tests: null, change: null },
    });
    expect(parseCodeGoal('Project: bench/clamp-range\nchange: make the bound inclusive\n')).toMatchObject({
      ok: true,
      goal: { change: 'make the bound inclusive' },
    });
  });

  it('reads a local folder, which needs a change and gets the default tests glob', () => {
    expect(parseCodeGoal('project: /home/me/lib\nchange: add ISO weeks')).toEqual({
      ok: true,
      goal: { project: { kind: 'folder', path: '/home/me/lib' }, tests: DEFAULT_TEST_GLOB, change: 'add ISO weeks' },
    });
    expect(goalNamesFolder('project: /home/me/lib\nchange: x')).toBe(true);
    expect(goalNamesFolder('project: bench/clamp-range')).toBe(false);
    expect(codeGoalError('project: /home/me/lib')).toMatch(/say what to change/);
  });

  it('refuses what it cannot read, naming the fault', () => {
    expect(codeGoalError('')).toMatch(/name the project/);
    expect(codeGoalError('fix the bug')).toMatch(/each line is/);
    expect(codeGoalError('project: bench/Clamp_Range')).toMatch(/not a benchmark project id/);
    expect(codeGoalError('project: relative/folder\nchange: x')).toMatch(/absolute folder path/);
    expect(codeGoalError('project: /a/../etc\nchange: x')).toMatch(/\.\./);
    expect(codeGoalError('project: bench/a\ntests: *.ts')).toMatch(/its own tests/);
    expect(codeGoalError('project: bench/a\nproject: bench/b')).toMatch(/twice/);
  });

  it('writes a goal that reads back the same', () => {
    for (const text of ['project: bench/clamp-range', 'project: /srv/app\ntests: src/**/*.spec.ts\nchange: rename x']) {
      const parsed = parseCodeGoal(text);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(formatCodeGoal(parsed.goal)).toBe(text);
    }
  });
});

describe('the public output', () => {
  const patch = 'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n';

  it('reads back the description and the patch it wrote', () => {
    const text = formatCodeOutput({ description: 'Make the bound inclusive.\n- step one', patch });
    expect(parseCodeOutput(text)).toEqual({ description: 'Make the bound inclusive.\n- step one', patch });
  });

  it('keeps a description that itself starts a line with a patch header out of the patch', () => {
    const text = formatCodeOutput({ description: 'diff --git a/x b/x looked wrong', patch });
    expect(parseCodeOutput(text)?.patch).toBe(patch);
  });

  it('finds no patch in a synthesized text', () => {
    expect(parseCodeOutput('I would change the bound.')).toBeNull();
  });

  it('names the download after the run, safely', () => {
    expect(patchFileName('run/../x y')).toBe('arborist-run____x_y.patch');
  });
});
