/**
 * The 156 5x5 mini crosswords of the Tree-of-Thoughts paper (mini0505.json, copied unchanged from
 * princeton-nlp/tree-of-thought-llm `src/tot/data/crosswords/mini0505.json`, MIT licence; see README.md beside it): each
 * entry is [the ten clues h1-h5 then v1-v5, the 25 letters of the solved grid row by row]. The paper's DFS ran
 * puzzles 0, 5, 10, ..., 95. Bundled as a JSON module (so the server, its import worker, the CLI and tests all read
 * the same bytes without a path to resolve) and checked once on first use.
 * Not a searchable task (no prompts, no simulation: Arborist does not run crosswords, it imports their logs). Not
 * responsible for the board's rules (lib/contract/crossword.ts).
 */
import { z } from 'zod';
import { CLUE_IDS, CROSSWORD_CELLS } from '../../contract/crossword';
import mini0505 from './mini0505.json' with { type: 'json' };

export interface CrosswordPuzzle {
  /** 0-based index in the file, as the paper's runs name it. */
  index: number;
  /** The ten clues, in CLUE_IDS order. */
  clues: string[];
  /** The 25 letters of the solution, row by row, upper case. */
  solution: string[];
}

const fileSchema = z.array(
  z.tuple([
    z.array(z.string().min(1)).length(CLUE_IDS.length),
    z.array(z.string().regex(/^[A-Z]$/)).length(CROSSWORD_CELLS),
  ]),
);

let cache: CrosswordPuzzle[] | null = null;

export function crosswordPuzzles(): readonly CrosswordPuzzle[] {
  cache ??= fileSchema.parse(mini0505).map(([clues, solution], index) => ({ index, clues, solution }));
  return cache;
}
