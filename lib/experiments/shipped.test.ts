import { describe, expect, it } from 'vitest';
import { datasetItemSchema } from '../contract/experiments';
import { taskInfo } from '../contract/tasks';
import { getPuzzle, puzzleRange } from '../tasks/index';
import { GAME24_PUZZLE_COUNT, SHIPPED_DATASETS } from './datasets';
import { rankTag, shippedDatasetItems } from './shipped';

describe('shippedDatasetItems', () => {
  it("gives the paper's test set as its 100 puzzles, tagged with their rank bucket and no expected answer", () => {
    const items = shippedDatasetItems('game24:900-999')!;
    expect(items).toHaveLength(100);
    expect(items[0]).toEqual({ goal: getPuzzle(900).numbers.join(' '), expected: null, tags: ['rank:900-999'] });
    expect(items[99]!.goal).toBe(getPuzzle(999).numbers.join(' '));
  });

  it('counts the puzzles as the puzzle list does', () => {
    expect(() => puzzleRange(0, GAME24_PUZZLE_COUNT)).not.toThrow();
    expect(() => puzzleRange(0, GAME24_PUZZLE_COUNT + 1)).toThrow(RangeError);
    expect(shippedDatasetItems(`game24:0-${GAME24_PUZZLE_COUNT - 1}`)).toHaveLength(GAME24_PUZZLE_COUNT);
  });

  it("gives every benchmark project as a goal the code task accepts, tagged with the project's kind", () => {
    const items = shippedDatasetItems('code:bench')!;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.goal).toMatch(/^project: bench\/[a-z0-9-]+$/);
      expect(taskInfo('code')!.validateGoal(item.goal)).toBeNull();
      expect(item.tags[0]).toMatch(/^kind:/);
    }
    expect(items.map((i) => i.goal)).toContain('project: bench/clamp-range');
  });

  it("gives every listed set's items in the contract's shape, each accepted by its task's rule", () => {
    for (const d of SHIPPED_DATASETS) {
      const validate = taskInfo(d.taskId)!.validateGoal;
      for (const item of shippedDatasetItems(d.id)!) {
        expect(datasetItemSchema.parse(item)).toEqual(item);
        expect(validate(item.goal)).toBeNull();
      }
    }
  });

  it('is null for an id that names no set', () => {
    expect(shippedDatasetItems('game24:0-1362')).toBeNull();
    expect(shippedDatasetItems('crosswords:0-19')).toBeNull();
  });
});

describe('rankTag', () => {
  it('buckets indices by hundreds, the last bucket ending at the last puzzle', () => {
    expect(rankTag(0)).toBe('rank:0-99');
    expect(rankTag(999)).toBe('rank:900-999');
    expect(rankTag(1361)).toBe('rank:1300-1361');
  });
});
