/**
 * lib/experiments' test support: a cell with every figure filled in, for this room's tests and anyone testing a
 * page or a router over experiments. Never imported by production code (the linter holds it).
 * Not responsible for realistic figures: each test says the ones it asserts on.
 */
import type { CellFigures } from '../contract/experiments';

/** A cell of item 0, configuration 0, repetition 0, solved by run "run-0-0-0", with small figures; override any. */
export function cell(overrides: Partial<CellFigures> = {}): CellFigures {
  const item = overrides.item ?? 0;
  const configuration = overrides.configuration ?? 0;
  const repetition = overrides.repetition ?? 0;
  return {
    item,
    configuration,
    repetition,
    runId: `run-${item}-${configuration}-${repetition}`,
    outcome: 'solved',
    costUsd: 0.01,
    unpricedCalls: 0,
    tokens: 100,
    modelCalls: 2,
    wallMs: 1000,
    exploredNodes: 5,
    backtracks: 1,
    bestScore: 0.9,
    output: null,
    ...overrides,
  };
}
