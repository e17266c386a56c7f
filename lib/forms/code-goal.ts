/**
 * The run form's code task part as values: a benchmark project (by id) or, for admins, a folder of the server with
 * what to change and its tests, turned into the goal text the contract reads (formatCodeGoal, lib/contract/code.ts),
 * and back from a goal when the form opens with one.
 * Not responsible for checking the goal (codeGoalError, the server) nor for who may use a folder (the server refuses
 * it to anyone but an admin; the form only leaves the choice out).
 */
import { formatCodeGoal, parseCodeGoal } from '../contract/code';

export interface CodeGoalChoice {
  source: 'bench' | 'folder';
  benchId: string;
  folder: string;
  change: string;
  /** Empty: the contract's default glob. */
  tests: string;
}

export const EMPTY_CODE_CHOICE: CodeGoalChoice = { source: 'bench', benchId: '', folder: '', change: '', tests: '' };

/** The choice a goal text holds; a text that does not parse gives an empty benchmark choice. */
export function codeGoalChoice(goal: string): CodeGoalChoice {
  const parsed = parseCodeGoal(goal);
  if (!parsed.ok) return EMPTY_CODE_CHOICE;
  const { project, change, tests } = parsed.goal;
  return project.kind === 'bench'
    ? { ...EMPTY_CODE_CHOICE, benchId: project.id }
    : { source: 'folder', benchId: '', folder: project.path, change: change ?? '', tests: tests ?? '' };
}

/** One line of a goal: the form's inputs are single lines, and a pasted newline would start another key. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/**
 * The goal text of a choice. An empty benchmark id gives an empty goal (the form's "enter a project" message); a
 * folder's missing parts are left for the goal's check to name.
 */
export function codeGoalText(choice: CodeGoalChoice): string {
  if (choice.source === 'bench') {
    const id = oneLine(choice.benchId);
    return id ? formatCodeGoal({ project: { kind: 'bench', id }, tests: null, change: null }) : '';
  }
  const change = oneLine(choice.change);
  const tests = oneLine(choice.tests);
  return formatCodeGoal({
    project: { kind: 'folder', path: oneLine(choice.folder) },
    tests: tests || null,
    change: change || null,
  });
}
