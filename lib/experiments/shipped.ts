/**
 * The items of a shipped set (datasets.ts lists them and reads their ids): Game of 24 puzzles from the paper's
 * list and the code benchmark's projects, both read from lib/tasks on disk. Server side only: it is reached through
 * the room's second door, server.ts, never the browser's index.ts (lib/tasks would bring node:fs to the bundle).
 * Tags: a puzzle is tagged with its bucket of 100 in the paper's ranking by human solve time, `rank:900-999` (the
 * higher, the harder; the paper's test set is exactly that bucket); a code project with its kind, `kind:bug`.
 * Not responsible for the mini crosswords: they are not a runnable task here (lib/contract/tasks.ts).
 */
import { benchProjects, puzzleGoal, puzzleRange } from '../tasks/index';
import type { DatasetItem } from '../contract/experiments';
import { GAME24_PUZZLE_COUNT, parseShippedDatasetId } from './datasets';

/** The puzzle's rank bucket: `rank:900-999` for indices 900 to 999 (the last bucket ends at the last puzzle). */
export function rankTag(index: number): string {
  const start = Math.floor(index / 100) * 100;
  return `rank:${start}-${Math.min(start + 99, GAME24_PUZZLE_COUNT - 1)}`;
}

/** A shipped set's items, or null for an id that names none (datasets.ts parseShippedDatasetId). */
export function shippedDatasetItems(id: string): DatasetItem[] | null {
  const ref = parseShippedDatasetId(id);
  if (!ref) return null;
  if (ref.kind === 'game24') {
    return puzzleRange(ref.start, ref.end + 1).map((puzzle) => ({
      goal: puzzleGoal(puzzle),
      expected: null,
      tags: [rankTag(puzzle.index)],
    }));
  }
  return benchProjects().map((project) => ({
    goal: `project: bench/${project.id}`,
    expected: null,
    tags: [`kind:${project.kind}`],
  }));
}
