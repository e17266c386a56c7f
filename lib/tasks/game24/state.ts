/**
 * The state of a Game of 24 path: the root's numbers come from the goal ("4 9 10 13"); each move node's
 * thought is a move line whose "(left: ...)" list is the state after it; an answer node ends the path.
 * The state is what the lines claim: whether a claim is right is the verifier's business, and a node whose
 * move fails verification is never expanded, so a path that is being extended only holds checked moves.
 * Not responsible for checking moves (verifier.ts) or for prompts (prompts.ts).
 */
import type { ThoughtNode } from '../../engine/types';
import { puzzleNumbers } from './goal';
import { answerBody, isAnswerLine, parseMove } from './move';
import { rational, type Rational } from './rational';

export interface Game24State {
  puzzle: number[];
  /** The numbers left after the last move. */
  left: Rational[];
  /** The move lines replayed, in order. */
  moves: string[];
  /** The answer line when the path ends on one. */
  answer: string | null;
  /** Why a line could not be read (the state stops before it). */
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

/** Replays lines from the puzzle; throws InvalidPuzzleError when the goal is not a puzzle. */
export function stateFromLines(goal: string, lines: readonly string[]): Game24State {
  const puzzle = puzzleNumbers(goal);
  const state: Game24State = { puzzle, left: puzzle.map((n) => rational(n)), moves: [], answer: null, error: null };
  for (const line of lines) {
    if (isAnswerLine(line)) {
      state.answer = `Answer: ${answerBody(line)}`;
      break;
    }
    const parsed = parseMove(line);
    if (!parsed.ok) {
      state.error = parsed.error;
      break;
    }
    state.left = parsed.move.left;
    state.moves.push(line.trim());
  }
  return state;
}
