/**
 * The scratchpad of a code search (the document's semantics): the verified step in full with its delta, a branch
 * that failed its check folded to one line with its verdict (not the trace's detail), everything escaped; and the
 * full history the figures compare it with, which keeps every explored node whole. And the incremental rendering:
 * what it keeps per node object never makes the text differ from a render of the same tree from nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EventOf, ExplorationEvent } from '../contract/events';
import { ExplorationControl } from './control';
import { ThoughtTreeExecutor } from './executor';
import { openGoalTask } from './prompts';
import { MAX_SUMMARIES, renderFullHistory, renderScratchpad } from './scratchpad';
import { handBuiltLog } from './testing';
import type { LanguageModel, ThoughtTask, ThoughtTree } from './types';
import { cloneTree, createEmptyTree, fold, reduce } from './tree';

const GOOD = '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-let a: Array<number>;\n+let a: number[];\n';
const BAD = '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-let a: Array<number>;\n+let a: string;\n';

function codeSearch() {
  const { events, add } = handBuiltLog();
  const change = (id: string, thought: string, diff: string) =>
    add('node.created', {
      nodeId: id,
      parentId: 'n0',
      branch: { thought, proposedAction: { type: 'code_change', diff } },
      score: { confidence: 0.5, progress: 0.5, novelty: 0.5, composite: 0.5, reasoning: '', fallback: false },
    });
  change('n1', 'Type a as a string', BAD);
  change('n2', 'Use number[] for a', GOOD);
  add('node.started', { nodeId: 'n1', mode: 'execute' });
  add('node.completed', { nodeId: 'n1', result: { response: '1 file changed', iterations: 0, isAnswer: false } });
  const trace =
    "FAIL: type error: a.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.\ntype-check: 1 error\n  a.ts(3,1): error TS2322 <details>";
  add('node.verified', { nodeId: 'n1', passed: false, trace });
  add('node.failed', { nodeId: 'n1', reason: `verification failed: ${trace}` });
  add('node.started', { nodeId: 'n2', mode: 'execute' });
  add('node.completed', {
    nodeId: 'n2',
    result: { response: '1 file changed; 3/3 tests pass', iterations: 0, isAnswer: true },
  });
  add('node.verified', { nodeId: 'n2', passed: true, trace: 'PASS: type-check clean; all 3 tests pass' });
  return fold(events);
}

describe('the scratchpad of a code search', () => {
  it('keeps the verified step in full with its delta and folds the failed one to one line with its verdict', () => {
    const pad = renderScratchpad(codeSearch(), 'n2');
    expect(pad).toContain('let a: Array&lt;number&gt;;');
    expect(pad).toContain(
      '<verification_trace status="PASS">PASS: type-check clean; all 3 tests pass</verification_trace>',
    );
    const pruned = pad.split('\n').filter((line) => line.includes('<pruned_branch'));
    expect(pruned).toEqual([
      '  <pruned_branch id="n1" depth="1">Type a as a string (FAIL: type error: a.ts(3,1): error TS2322: Type &apos;string&apos; is not assignable to type &apos;number&apos;.)</pruned_branch>',
    ]);
    expect(pad).not.toContain('+let a: string;');
  });

  it('the full history keeps every explored node whole: the failed delta and its whole trace, escaped', () => {
    const full = renderFullHistory(codeSearch());
    expect(full).toContain('+let a: string;');
    expect(full).toContain('error TS2322 &lt;details&gt;');
    expect(full).toContain('<step id="n1" depth="1" parent="n0" status="FAILED">');
    expect(full.length).toBeGreaterThan(renderScratchpad(codeSearch(), 'n2').length);
  });
});

/**
 * A search with many dead ends of every kind: three candidates per expansion; a step whose number ends in 1 fails
 * its verification (a trace with characters to escape), one ending in 2 fails its run (a sub-goal the model cannot
 * carry out), and a person prunes a pending node now and then.
 */
async function searchWithDeadEnds(strategy: 'beam' | 'dfs', onCommit: (group: ExplorationEvent[]) => void) {
  let calls = 0;
  const model: LanguageModel = {
    id: 'test-model',
    complete: async (request) => {
      calls++;
      const usage = { inputTokens: 10, outputTokens: 5 };
      if (request.purpose === 'generate') {
        const items = [0, 1, 2].map((i) => {
          const n = calls * 3 + i;
          const action =
            n % 10 === 2 ? { type: 'sub_goal', goal: `look into <${n}>` } : { type: 'response', content: `r${n}` };
          return { thought: `step ${n} & "${i}"`, action };
        });
        return { text: JSON.stringify(items), usage };
      }
      if (request.purpose === 'evaluate')
        return { text: '{"confidence": 0.6, "progress": 0.5, "novelty": 0.4}', usage };
      if (request.purpose === 'execute') throw new Error('the model is down <503>');
      return { text: 'done', usage };
    },
  };
  const task: ThoughtTask = {
    ...openGoalTask,
    verify: (node) =>
      node.branch?.thought.split(' ')[1]?.endsWith('1')
        ? { passed: false, trace: `FAIL: <${node.id}> is 'wrong'\ndetail & more` }
        : { passed: true, trace: 'PASS: fine' },
  };
  const control = new ExplorationControl();
  let commits = 0;
  await new ThoughtTreeExecutor({
    explorationStrategy: strategy,
    maxTotalNodes: 100,
    maxDepth: 6,
    confidenceThreshold: 0,
  }).explore({ name: 'test', model }, 'a goal with many dead ends', {
    task,
    control,
    onCommit: (group) => {
      onCommit(group);
      const pending = group.find(
        (e): e is EventOf<'node.created'> => e.type === 'node.created' && e.payload.parentId !== null,
      );
      if (pending && ++commits % 7 === 0) control.prune(pending.payload.nodeId, 'alice');
    },
  });
}

describe('the scratchpad rendered incrementally', () => {
  it('is, after every atomic group of a search with failed, pruned and verified steps, the text a module with nothing kept renders', async () => {
    const seen: { tree: ThoughtTree; texts: string[] }[] = [];
    for (const strategy of ['beam', 'dfs'] as const) {
      const tree = createEmptyTree();
      await searchWithDeadEnds(strategy, (group) => {
        for (const event of group) reduce(tree, event);
        seen.push({ tree: cloneTree(tree), texts: tree.nodeOrder.map((id) => renderScratchpad(tree, id)) });
      });
    }
    const kinds = new Set<string>();
    let fullWindow = 0;
    for (const { tree, texts } of seen) {
      vi.resetModules(); // a new instance of the module: nothing rendered before is kept
      const fresh = await import('./scratchpad');
      expect(tree.nodeOrder.map((id) => fresh.renderScratchpad(tree, id))).toEqual(texts);
      for (const text of texts) {
        for (const kind of ['pruned by alice', 'FAIL: &lt;', 'model error', 'status="VERIFIED"', 'status="FAILED"']) {
          if (text.includes(kind)) kinds.add(kind);
        }
      }
      if (tree.deadEnds.length > MAX_SUMMARIES) fullWindow++;
    }
    // the search did fold every kind of dead end, past the window of the most recent ones
    expect([...kinds].sort()).toEqual([
      'FAIL: &lt;',
      'model error',
      'pruned by alice',
      'status="FAILED"',
      'status="VERIFIED"',
    ]);
    expect(fullWindow).toBeGreaterThan(0);
  });
});
