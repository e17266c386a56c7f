import { describe, expect, it } from 'vitest';
import { codeGoalError, parseCodeGoal } from '../contract/code';
import { codeGoalChoice, codeGoalText, EMPTY_CODE_CHOICE } from './code-goal';

describe('the run form’s code goal', () => {
  it('writes a benchmark project as its one line, and reads it back', () => {
    const goal = codeGoalText({ ...EMPTY_CODE_CHOICE, benchId: 'clamp-range' });
    expect(goal).toBe('project: bench/clamp-range');
    expect(codeGoalChoice(goal)).toEqual({ ...EMPTY_CODE_CHOICE, benchId: 'clamp-range' });
  });

  it('leaves the goal empty until a project is picked', () => {
    expect(codeGoalText(EMPTY_CODE_CHOICE)).toBe('');
  });

  it('writes a folder with its change and tests as goal lines the contract reads, pasted newlines kept on one line', () => {
    const choice = {
      source: 'folder' as const,
      benchId: '',
      folder: ' /srv/app ',
      change: 'rename total\nto sum',
      tests: 'test/**/*.test.ts',
    };
    const goal = codeGoalText(choice);
    expect(parseCodeGoal(goal)).toEqual({
      ok: true,
      goal: {
        project: { kind: 'folder', path: '/srv/app' },
        tests: 'test/**/*.test.ts',
        change: 'rename total to sum',
      },
    });
    expect(codeGoalChoice(goal)).toEqual({ ...choice, folder: '/srv/app', change: 'rename total to sum' });
  });

  it("a folder without a change or path is the goal check's to refuse, by name", () => {
    const folder = { ...EMPTY_CODE_CHOICE, source: 'folder' as const };
    expect(codeGoalError(codeGoalText({ ...folder, folder: '/srv/app' }))).toMatch(/change/);
    expect(codeGoalError(codeGoalText({ ...folder, change: 'x' }))).toMatch(/project/);
    // the default glob is the contract's: the form sends none
    expect(codeGoalText({ ...folder, folder: '/srv/app', change: 'x' })).toBe('project: /srv/app\nchange: x');
  });
});
