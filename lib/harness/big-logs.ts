/**
 * Big Tree-of-Thoughts logs for the tools that import one into a running server (bench:import, the e2e test that
 * kills a server mid-import): the paper authors' GPT-4 games (lib/formats' fixture) repeated until the JSON reaches a
 * size, each copy's running token totals after the last's, so the log reads as one long session.
 * Not responsible for importing it (the server's /api/runs/import) nor for what it measures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE = path.join(process.cwd(), 'lib', 'formats', 'fixtures', 'tot-game24-gpt4-bfs-sample.json');

type Usage = { completion_tokens: number; prompt_tokens: number; cost: number };
type Game = { usage_so_far?: Usage } & Record<string, unknown>;

/** The sample's games repeated until the JSON reaches `megabytes`, each copy's running totals after the last's. */
export function bigTotLog(megabytes: number): string {
  const games = JSON.parse(readFileSync(SOURCE, 'utf8')) as Game[];
  const last = games[games.length - 1]?.usage_so_far ?? { completion_tokens: 0, prompt_tokens: 0, cost: 0 };
  const perCopy = Buffer.byteLength(JSON.stringify(games));
  const copies = Math.max(1, Math.floor((megabytes * 1024 * 1024) / perCopy));
  const out: Game[] = [];
  for (let c = 0; c < copies; c++) {
    for (const game of games) {
      const u = game.usage_so_far;
      out.push({
        ...game,
        ...(u && {
          usage_so_far: {
            completion_tokens: u.completion_tokens + c * last.completion_tokens,
            prompt_tokens: u.prompt_tokens + c * last.prompt_tokens,
            cost: u.cost + c * last.cost,
          },
        }),
      });
    }
  }
  return JSON.stringify(out);
}
