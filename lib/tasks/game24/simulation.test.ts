import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelPurpose } from '../../contract/vocabulary';
import { type CompletionRequest, openGoalTask, type ThoughtNode } from '../../engine/index';
import { createRng } from '../../models/index';
import { makePath } from '../testing/trees';
import { formatMove, parseMove } from './move';
import { rational } from './rational';
import {
  game24Simulation as sim,
  legalMoves,
  MISJUDGE_RATE,
  proposeLines,
  SLIP_RATE,
  valueResponse,
} from './simulation';
import { canReach24 } from './solver';
import { game24Task as task } from './task';
import { verifyAnswer, verifyMove } from './verifier';

const GOAL = '4 9 10 13';
const request = (purpose: ModelPurpose, messages: ChatMessage[]): CompletionRequest => ({ purpose, messages });

function proposeRequest(lines: string[], count = 5): CompletionRequest {
  const path = makePath(lines);
  const node = path.at(-1) as ThoughtNode;
  return request(
    'generate',
    task.buildGenerationPrompt({ goal: GOAL, node, path, count, exploredThoughts: [], scratchpad: '' }),
  );
}

function valueRequest(lines: string[], candidate: string): CompletionRequest {
  const branch = { thought: candidate, proposedAction: { type: 'response' as const, content: candidate } };
  return request(
    'evaluate',
    task.buildEvaluationPrompt({ goal: GOAL, path: makePath(lines), branch, siblings: [branch] }),
  );
}

function proposeRequestWithTried(tried: string[]): CompletionRequest {
  const path = makePath(['13 - 9 = 4 (left: 4 4 10)']);
  const node = path.at(-1) as ThoughtNode;
  const ctx = { goal: GOAL, node, path, count: 5, exploredThoughts: tried, scratchpad: '' };
  return request('generate', task.buildGenerationPrompt(ctx));
}

const SEEDS = Array.from({ length: 400 }, (_, i) => i + 1);

describe('game24 simulation', () => {
  it('recognises its own prompts only', () => {
    expect(sim.recognizes(proposeRequest([]))).toBe(true);
    expect(sim.recognizes(valueRequest([], '13 - 9 = 4 (left: 4 4 10)'))).toBe(true);
    const path = makePath([]);
    const openGoal = openGoalTask.buildGenerationPrompt({
      goal: 'Plan a trip',
      node: path[0] as ThoughtNode,
      path,
      count: 3,
      exploredThoughts: [],
      scratchpad: '',
    });
    expect(sim.recognizes(request('generate', openGoal))).toBe(false);
  });

  it('gives the same text for the same seed', () => {
    const req = proposeRequest(['13 - 9 = 4 (left: 4 4 10)']);
    for (const seed of [1, 2, 3]) {
      expect(sim.respond(req, createRng(seed))).toBe(sim.respond(req, createRng(seed)));
    }
    const texts = new Set(SEEDS.slice(0, 20).map((s) => sim.respond(req, createRng(s))));
    expect(texts.size).toBeGreaterThan(10);
  });

  it('proposes legal moves from the current state, the count asked for, with rare slips', () => {
    const states: [string[], number[]][] = [
      [[], [4, 9, 10, 13]],
      [['13 - 9 = 4 (left: 4 4 10)'], [4, 4, 10]],
      [
        ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)'],
        [4, 6],
      ],
    ];
    let lines = 0;
    let slips = 0;
    for (const [path, left] of states) {
      for (const seed of SEEDS) {
        const branches = task.parseBranches(sim.respond(proposeRequest(path, 4), createRng(seed)), {
          goal: GOAL,
          node: makePath([])[0] as ThoughtNode,
          path: [],
          count: 4,
          exploredThoughts: [],
          scratchpad: '',
        });
        expect(branches, `seed ${seed}`).not.toBeNull();
        expect(branches?.length).toBeLessThanOrEqual(4);
        for (const b of branches ?? []) {
          lines++;
          const check = verifyMove(
            left.map((n) => rational(n)),
            b.thought,
          );
          if (check.passed) continue;
          // The only mistake the simulation makes on purpose: a wrong result, carried into the left list.
          expect(check.trace, b.thought).toMatch(/^\d+(\/\d+)? [-+*/] \d+(\/\d+)? = \S+, not \S+$/);
          slips++;
        }
      }
    }
    expect(slips).toBeGreaterThan(0);
    expect(slips / lines).toBeGreaterThan(SLIP_RATE / 3);
    expect(slips / lines).toBeLessThan(SLIP_RATE * 2);
  });

  it('does not propose moves listed as already tried, so a re-expansion brings new steps', () => {
    const left = [4, 4, 10].map((n) => rational(n));
    const all = legalMoves(left).map((c) => formatMove(c.move));
    const tried = all.slice(0, all.length - 2);
    for (const seed of SEEDS.slice(0, 50)) {
      const lines = proposeLines(left, 8, createRng(seed), tried);
      expect(lines.length).toBe(2);
      for (const line of lines) {
        const parsed = parseMove(line);
        if (parsed.ok && verifyMove(left, line).passed) expect(tried).not.toContain(line);
      }
    }
    // Written the other way round, a commutative move is still the same move.
    const swapped = proposeLines(left, 30, createRng(1), ['10 + 4 = 14 (left: 4 14)']);
    expect(swapped.some((l) => /^(4 \+ 10|10 \+ 4) = 14 /.test(l))).toBe(false);
    expect(sim.respond(proposeRequestWithTried(all), createRng(1))).toBe(
      'Every step from 4 4 10 has been tried already.',
    );
  });

  it('puts moves that keep 24 reachable near the top, but not always', () => {
    const puzzle = [4, 9, 10, 13].map((n) => rational(n));
    const moves = legalMoves(puzzle);
    const shareSolvable = moves.filter((m) => canReach24(m.move.left)).length / moves.length;
    const firstSolvable = SEEDS.filter((seed) => {
      const parsed = parseMove(proposeLines(puzzle, 8, createRng(seed))[0] ?? '');
      return parsed.ok && canReach24(parsed.move.left);
    }).length;
    expect(firstSolvable / SEEDS.length).toBeGreaterThan(shareSolvable + 0.2);
    expect(firstSolvable / SEEDS.length).toBeLessThan(1);
  });

  it("values states in the paper's style, misjudging some", () => {
    let solvableCalledImpossible = 0;
    let unsolvableCalledLikely = 0;
    for (const seed of SEEDS) {
      const good = sim.respond(valueRequest(['13 - 9 = 4 (left: 4 4 10)'], '10 - 4 = 6 (left: 4 6)'), createRng(seed));
      const bad = sim.respond(valueRequest([], '4 * 9 = 36 (left: 10 13 36)'), createRng(seed));
      const verdict = (t: string) => t.trim().split('\n').at(-1);
      expect(['sure', 'likely', 'impossible']).toContain(verdict(good));
      expect(['likely', 'impossible']).toContain(verdict(bad));
      if (verdict(good) === 'impossible') solvableCalledImpossible++;
      if (verdict(bad) === 'likely') unsolvableCalledLikely++;
    }
    for (const count of [solvableCalledImpossible, unsolvableCalledLikely]) {
      expect(count / SEEDS.length).toBeGreaterThan(MISJUDGE_RATE / 2);
      expect(count / SEEDS.length).toBeLessThan(MISJUDGE_RATE * 2);
    }
    expect(sim.respond(valueRequest([], '4 * 9 = 36 (left: 10 13 36)'), createRng(1))).toContain('36');
  });

  it('values lone numbers without noise', () => {
    for (const seed of SEEDS.slice(0, 50)) {
      expect(valueResponse([rational(24)], createRng(seed)).endsWith('sure')).toBe(true);
      expect(valueResponse([rational(23)], createRng(seed)).endsWith('impossible')).toBe(true);
    }
  });

  it('composes an answer from a path that reaches 24, which verifies', () => {
    const moves = ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'];
    let passed = 0;
    for (const seed of SEEDS) {
      const answer = sim.respond(proposeRequest(moves), createRng(seed));
      expect(answer).toMatch(/^Answer: .* = 24$/);
      if (verifyAnswer([4, 9, 10, 13], answer).passed) passed++;
    }
    expect(passed / SEEDS.length).toBeGreaterThan(0.9);
    expect(sim.respond(proposeRequest(moves), createRng(1))).toBe('Answer: (13 - 9) * (10 - 4) = 24');
  });

  it('composes answers through fractions', () => {
    const goal = '3 3 8 8';
    const moves = ['8 / 3 = 8/3 (left: 3 8 8/3)', '3 - 8/3 = 1/3 (left: 1/3 8)', '8 / 1/3 = 24 (left: 24)'];
    const path = makePath(moves);
    const req = request(
      'generate',
      task.buildGenerationPrompt({
        goal,
        node: path.at(-1) as ThoughtNode,
        path,
        count: 3,
        exploredThoughts: [],
        scratchpad: '',
      }),
    );
    expect(sim.respond(req, createRng(1))).toBe('Answer: 8 / (3 - 8 / 3) = 24');
  });

  it('judges answers, mostly right', () => {
    const judge = (answer: string, seed: number) =>
      sim
        .respond(valueRequest(['13 - 9 = 4 (left: 4 4 10)'], answer), createRng(seed))
        .trim()
        .split('\n')
        .at(-1);
    const right = SEEDS.filter((s) => judge('Answer: (13 - 9) * (10 - 4) = 24', s) === 'sure').length;
    const wrong = SEEDS.filter((s) => judge('Answer: 4 * (10 - 4) = 24', s) === 'sure').length;
    expect(right / SEEDS.length).toBeGreaterThan(0.85);
    expect(wrong / SEEDS.length).toBeLessThan(0.2);
  });

  it('synthesises by finishing the path with the solver, or says there is none', () => {
    const synth = (lines: string[]) =>
      sim.respond(
        request('synthesize', task.buildSynthesisPrompt({ goal: GOAL, path: makePath(lines) })),
        createRng(1),
      );
    const open = synth(['13 - 9 = 4 (left: 4 4 10)']);
    expect(open).toMatch(/^Answer: .* = 24$/);
    expect(verifyAnswer([4, 9, 10, 13], open).passed).toBe(true);
    expect(synth(['4 * 9 = 36 (left: 10 13 36)'])).toBe('No solution found from this path: 10 13 36 cannot reach 24.');
    expect(synth(['13 - 9 = 4 (left: 4 4 10)', 'Answer: (13 - 9) * (10 - 4) = 24'])).toBe(
      'Answer: (13 - 9) * (10 - 4) = 24',
    );
    expect(verifyAnswer([4, 9, 10, 13], synth([])).passed).toBe(true);
  });
});
