/**
 * Test helpers for the tasks' tests: thought nodes and paths without running the engine.
 * Not used by production code.
 */
import type { ThoughtBranch, ThoughtNode } from '../engine/types';

export function makeNode(
  id: string,
  parentId: string | null,
  depth: number,
  branch: ThoughtBranch | null,
): ThoughtNode {
  return {
    id,
    parentId,
    depth,
    childIds: [],
    branch,
    score: null,
    cumulativeScore: 0,
    status: 'completed',
    prunedBy: null,
    result:
      branch?.proposedAction.type === 'response'
        ? { response: branch.proposedAction.content, iterations: 0, isAnswer: false }
        : null,
    verification: null,
    failureReason: null,
    expansions: 0,
    dropped: [],
    usage: { inputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 },
    modelCallSeqs: [],
    modelMs: 0,
    createdSeq: 0,
    startedSeq: null,
    finishedSeq: null,
  };
}

/** The root (the goal) and one response node per line, each the child of the one before. */
export function makePath(lines: readonly string[]): ThoughtNode[] {
  const path = [makeNode('n0', null, 0, null)];
  lines.forEach((line, i) => {
    const parent = path[i] as ThoughtNode;
    const node = makeNode(`n${i + 1}`, parent.id, i + 1, {
      thought: line,
      proposedAction: { type: 'response', content: line },
    });
    parent.childIds.push(node.id);
    path.push(node);
  });
  return path;
}
