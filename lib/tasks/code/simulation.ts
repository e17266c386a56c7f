/**
 * The offline model's answers to the code task's prompts. STUB on main: the task helper builds it.
 */
import type { Simulation } from '../../models/index';

export const codeSimulation: Simulation = {
  taskId: 'code',
  recognizes: () => false,
  respond: () => '',
};
