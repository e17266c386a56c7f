import { describe, expect, it } from 'vitest';
import { finishReasonText } from './finish-reasons';

describe("why a run finished, in the inspector's words", () => {
  it("says the engine's own rule for the engine's runs", () => {
    expect(finishReasonText('terminated', false)).toBe('a node reached the termination confidence');
    expect(finishReasonText('frontier-empty', false)).toBe('nothing left to explore');
  });

  it('never credits a search Arborist does not run with the engine’s termination confidence', () => {
    expect(finishReasonText('terminated', true)).toBe('the search decided it was done');
    expect(finishReasonText('frontier-empty', true)).toBe('nothing left to explore');
    expect(finishReasonText('aborted', true)).toBe('aborted by a person');
  });
});
