/**
 * codeTask: a change to a small TypeScript project as a ThoughtTask. STUB on main: the task helper builds it.
 */
import { codeGoalError } from '../../contract/code';
import { openGoalTask, type ThoughtTask } from '../../engine/index';

export const codeTask: ThoughtTask = {
  ...openGoalTask,
  id: 'code',
  validateGoal: codeGoalError,
  verifyOutput: () => ({ passed: false, trace: 'not built yet' }),
};
