/**
 * The scratchpad of a code search (the document's semantics): the verified step in full with its delta, a branch
 * that failed its check folded to one line with its verdict (not the trace's detail), everything escaped; and the
 * full history the figures compare it with, which keeps every explored node whole.
 */
import { describe, expect, it } from 'vitest';
import { renderFullHistory, renderScratchpad } from './scratchpad';
import { handBuiltLog } from './testing';
import { fold } from './tree';

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
