/**
 * `npx tsx lib/bench/search.ts`: how long the run page's search takes on big trees, printed, never asserted.
 * Builds runs of about 1k, 10k and 30k nodes with the engine and a model that answers instantly with texts of a
 * realistic length (thoughts of ~80 characters, responses of ~400), then times: the index built cold, the index
 * rebuilt after one more event (what a live update costs while a query is typed), and queries that match many
 * nodes, a few (one node's whole thought: it, and the parent whose generation answered it), and none. Not a test: nothing here can fail a build.
 */
import type { ExplorationEvent } from '../contract/events';
import { type CompletionRequest, type CompletionResponse, fold, type LanguageModel } from '../engine/index';
import { hashString } from '../models/index';
import { buildSearchIndex, searchIndex } from '../search/index';
import { recordBenchRun } from './bench-run';
import { median, medianMs } from './percentile';

const WORDS = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega orbit vector matrix prime'.split(' ');
const words = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => WORDS[hashString(`${seed}:${i}`) % WORDS.length]).join(' ');

class WordyModel implements LanguageModel {
  readonly id = 'gpt-4o-mini';
  private count = 0;
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const n = ++this.count;
    const usage = { inputTokens: 300, outputTokens: 80 };
    if (request.purpose === 'generate') {
      const branches = [0, 1, 2].map((i) => ({
        thought: `idea ${n}.${i}: ${words(n * 3 + i, 10)}`,
        action: { type: 'response', content: `try ${words(n * 7 + i, 6)}` },
      }));
      return { text: JSON.stringify(branches), usage };
    }
    if (request.purpose === 'evaluate') {
      const v = 0.3 + ((hashString(request.messages.at(-1)?.content ?? '') % 1000) / 1000) * 0.6;
      return { text: `{"confidence": ${Math.min(v, 0.79)}, "progress": ${v}, "novelty": ${v}}`, usage };
    }
    return { text: `result ${n}: ${words(n, 60)}`, usage };
  }
}

const run = (executed: number) => recordBenchRun(executed, new WordyModel());

const time = (work: () => unknown, repeat = 7) => medianMs(work, repeat);

async function main() {
  console.log('tree search (ms; medians of 5 cold builds, of 7 for the rest)');
  console.log('nodes\tevents\tindex cold\tindex next version\tquery many\tquery few\tquery none\thits many/few');
  for (const executed of [350, 3_500, 10_000]) {
    const events = await run(executed);
    const last = events.at(-1) as ExplorationEvent;
    const tree = fold(events.slice(0, -1));
    const cold = median(
      Array.from({ length: 5 }, () => {
        const fresh = structuredClone(tree); // new node objects: nothing cached
        const t = performance.now();
        buildSearchIndex(fresh, events);
        return performance.now() - t;
      }),
    );
    const warm = time(() => buildSearchIndex(tree, events));
    fold([last], tree);
    const next = time(() => buildSearchIndex(tree, events), 1);
    const index = buildSearchIndex(tree, events);
    const many = time(() => searchIndex(index, 'sigma'));
    const one = tree.nodes[tree.nodeOrder[Math.floor(tree.nodeOrder.length / 2)] as string]?.branch?.thought ?? '';
    const few = time(() => searchIndex(index, one));
    const none = time(() => searchIndex(index, 'no such text'));
    const counts = `${searchIndex(index, 'sigma').length}/${searchIndex(index, one).length}`;
    console.log(
      [tree.nodeOrder.length, events.length, cold, Math.max(next, warm), many, few, none]
        .map((x) => (Number.isInteger(x) ? String(x) : (x as number).toFixed(1)))
        .join('\t') + `\t${counts}`,
    );
  }
}

void main();
