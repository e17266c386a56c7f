import type { Job } from './queue';

export const USAGE = 'usage: add <id> [--priority <integer>]';

/** The job an `add` command describes. */
export function parseAdd(args: readonly string[]): Job {
  const [command, id] = args;
  if (command !== 'add' || !id || id.startsWith('--')) throw new Error(USAGE);
  return { id };
}
