/**
 * The state of a Game of 24 path, replayed from the puzzle: the root's numbers come from the goal ("4 9 10 13");
 * each move line is checked (verifier.ts's verifyMove, the one arithmetic check) against the numbers actually left
 * before it, never against the previous line's "(left: ...)" claim, and the state stops at the first line that
 * fails: a line past a failed move is never taken at its word (a logged search went on from wrong moves; a line
 * like "8 + 16 = 24 (left: 24)" after "8 * 2 = 16" with no 2 left reaches nothing). An answer line ends the path.
 * Not responsible for what a failure means for a node (task.ts) or for prompts (prompts.ts).
 */
import type { ThoughtNode } from '../../engine/index';
import { puzzleNumbers } from '../../contract/game24-goal';
import { answerBody, isAnswerLine, parseMove } from './move';
import { rational, type Rational } from './rational';
import { verifyMove } from './verifier';

export interface Game24State {
  puzzle: number[];
  /** The numbers left after the last move replayed (checked from the puzzle). */
  left: Rational[];
  /** The move lines replayed, in order (each one checked). */
  moves: string[];
  /** The answer line when the path ends on one. */
  answer: string | null;
  /** Why the replay stopped before a line: it is unreadable or fails its check, e.g. 'step 3 "8 * 2 = 16 (left:
   * 8 16)" uses 2, which is not among the numbers left (8 16)'. Null when every line was replayed. */
  error: string | null;
}

export function isAnswerNode(node: ThoughtNode): boolean {
  return node.branch !== null && isAnswerLine(node.branch.thought);
}

/** The lines of a path's steps (the root, which has no branch, has none). */
export function pathLines(path: readonly ThoughtNode[]): string[] {
  return path.flatMap((n) => (n.branch ? [n.branch.thought] : []));
}

export function stateOf(path: readonly ThoughtNode[], goal: string): Game24State {
  return stateFromLines(goal, pathLines(path));
}

/** Replays lines from the puzzle, checking each move; throws InvalidPuzzleError when the goal is not a puzzle. */
export function stateFromLines(goal: string, lines: readonly string[]): Game24State {
  const puzzle = puzzleNumbers(goal);
  const state: Game24State = { puzzle, left: puzzle.map((n) => rational(n)), moves: [], answer: null, error: null };
  for (const [i, line] of lines.entries()) {
    if (isAnswerLine(line)) {
      state.answer = `Answer: ${answerBody(line)}`;
      break;
    }
    const parsed = parseMove(line);
    const checked = parsed.ok ? verifyMove(state.left, line) : null;
    if (!parsed.ok || !checked?.passed) {
      state.error = `step ${i + 1} "${line.trim()}" ${parsed.ok ? (checked?.trace ?? '') : parsed.error}`;
      break;
    }
    // a passed check means the line's left list is exactly what its move leaves
    state.left = parsed.move.left;
    state.moves.push(line.trim());
  }
  return state;
}
