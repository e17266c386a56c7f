/**
 * game24Task: the Game of 24 as a ThoughtTask. The goal is the puzzle ("4 9 10 13"); each node below the root is
 * one move line ("13 - 9 = 4 (left: 4 4 10)"), taken as a direct response (no execution call); when 24 is the
 * only number left the next expansion asks for the answer line, which is verified exactly and ends the search.
 * Not responsible for prompt wording (prompts.ts), arithmetic checks (verifier.ts) or the offline model
 * (simulation.ts).
 */
import type { Verification } from '../../contract/vocabulary';
import type { ThoughtNode, ThoughtTask } from '../../engine/index';
import { puzzleError } from '../../contract/game24-goal';
import { formatNumbers, isAnswerLine, parseMove } from './move';
import {
  answerPrompt,
  executionPrompt,
  judgePrompt,
  parseProposals,
  proposePrompt,
  synthesisPrompt,
  valuePrompt,
  verdictScore,
} from './prompts';
import { equals, type Rational, TWENTY_FOUR } from './rational';
import { isAnswerNode, pathLines, stateFromLines, stateOf } from './state';
import { checkDeadEnd, verifyAnswer, verifyMove } from './verifier';

/** The path up to and including `node`, whether or not the caller's path already ends with it. */
function pathThrough(path: readonly ThoughtNode[], node: ThoughtNode): ThoughtNode[] {
  return path.at(-1)?.id === node.id ? [...path] : [...path, node];
}

/** The path above `node`. */
function pathAbove(path: readonly ThoughtNode[], node: ThoughtNode): ThoughtNode[] {
  return path.at(-1)?.id === node.id ? path.slice(0, -1) : [...path];
}

function onlyTwentyFour(left: readonly Rational[]): boolean {
  return left.length === 1 && equals(left[0] as Rational, TWENTY_FOUR);
}

export const game24Task: ThoughtTask = {
  id: 'game24',

  buildGenerationPrompt(ctx) {
    const state = stateOf(pathThrough(ctx.path, ctx.node), ctx.goal);
    const puzzle = state.puzzle.join(' ');
    if (onlyTwentyFour(state.left)) {
      return answerPrompt({ instructions: ctx.instructions, puzzle, moves: state.moves, scratchpad: ctx.scratchpad });
    }
    // A move already explored from the same numbers, anywhere in the tree, or dropped from this node, leads where
    // the search has been: list them so a re-expansion (a person's request, a backtrack) brings new steps.
    const tried = [...ctx.exploredThoughts, ...ctx.node.dropped.map((d) => d.branch.thought)].filter(
      (thought, i, all) =>
        all.indexOf(thought) === i && !isAnswerLine(thought) && verifyMove(state.left, thought).passed,
    );
    return proposePrompt({
      instructions: ctx.instructions,
      tried,
      puzzle,
      moves: state.moves,
      left: formatNumbers(state.left),
      count: ctx.count,
      scratchpad: ctx.scratchpad,
    });
  },

  parseBranches: (text, ctx) => parseProposals(text, ctx.count),

  // A generic "break it down" means nothing here: with no branches the expansion fails and the engine backtracks.
  fallbackBranches: () => [],

  buildEvaluationPrompt(ctx) {
    const step = ctx.branch.thought;
    if (isAnswerLine(step)) {
      const puzzle = stateFromLines(ctx.goal, []).puzzle.join(' ');
      return judgePrompt({ instructions: ctx.instructions, puzzle, answer: step });
    }
    // The model judges the numbers the candidate says it leaves (whether its move is right is checked when it
    // runs). An unreadable step, or one below a failed move, has no state to judge; the model sees it as it is and
    // will call it impossible.
    const above = stateFromLines(ctx.goal, pathLines(ctx.path));
    const parsed = parseMove(step);
    const left = above.error
      ? `(reached through a failed move) ${step}`
      : parsed.ok
        ? formatNumbers(parsed.move.left)
        : `(unreadable step) ${step}`;
    return valuePrompt({ instructions: ctx.instructions, left, step });
  },

  parseScore(text, ctx) {
    const depth = (ctx.path.at(-1)?.depth ?? -1) + 1;
    return verdictScore(text, isAnswerLine(ctx.branch.thought) ? 'answer' : 'move', depth);
  },

  buildExecutionPrompt(ctx) {
    const above = stateOf(pathAbove(ctx.path, ctx.node), ctx.goal);
    return executionPrompt({
      instructions: ctx.instructions,
      puzzle: above.puzzle.join(' '),
      moves: above.moves,
      step: ctx.node.branch?.thought ?? '',
    });
  },

  // A move or an answer is one line: whatever the model wrote is the result.
  isExecutionDone: () => true,

  buildSynthesisPrompt(ctx) {
    const state = stateOf(ctx.path, ctx.goal);
    return synthesisPrompt({
      instructions: ctx.instructions,
      puzzle: state.puzzle.join(' '),
      lines: pathLines(ctx.path),
    });
  },

  verify(node, path, goal): Verification | null {
    if (!node.branch) return null;
    const thought = node.branch.thought;
    // the path above is replayed from the puzzle: below a failed move nothing verifies, however right it looks
    const before = stateOf(pathAbove(path, node), goal);
    if (before.error) return { passed: false, trace: `reached through a failed move: ${before.error}` };
    if (isAnswerLine(thought)) return verifyAnswer(before.puzzle, thought);
    const checked = verifyMove(before.left, thought);
    if (!checked.passed) return checked;
    const parsed = parseMove(thought);
    const left = parsed.ok ? parsed.move.left : [];
    const dead = checkDeadEnd(left);
    if (dead) return { passed: false, trace: `${dead.trace} (the move itself is right: ${checked.trace})` };
    if (onlyTwentyFour(left)) return { passed: true, trace: `${checked.trace}; 24 is left: the answer comes next` };
    return checked;
  },

  // Whatever produced the output (the search or one synthesis call), the same exact check decides.
  verifyOutput(output, goal) {
    if (!isAnswerLine(output.trim())) return { passed: false, trace: 'the output is not an answer line' };
    return verifyAnswer(stateFromLines(goal, []).puzzle, output.trim());
  },

  isAnswer: (node) => isAnswerNode(node),

  // Answers end a path, and so does a single number other than 24; a lone 24 is expanded into the answer line.
  isTerminal(node) {
    if (!node.branch) return false;
    if (isAnswerNode(node)) return true;
    const parsed = parseMove(node.branch.thought);
    if (!parsed.ok) return true;
    return parsed.move.left.length === 0 || (parsed.move.left.length === 1 && !onlyTwentyFour(parsed.move.left));
  },

  validateGoal: puzzleError,
};
