/**
 * Test support (lib/tasks/testing/): thought nodes and paths without running the engine, and a small real Game of 24
 * search (for tests of what is derived from a whole tree: rollups, search, layouts). Imported by *.test.ts only.
 */
import type { ExplorationEvent } from '../../contract/events';
import type { ThoughtBranch } from '../../contract/vocabulary';
import { fold, newNode, type ThoughtNode, type ThoughtTree } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import { getTaskEntry } from '../index';
import { createSimulatedModel } from '../simulated-model';

/** A beam search (3 kept of 4, depth 4) on "4 9 10 13" with the simulated model: a few dozen nodes, every status. */
export async function searchedGame24(seed = 3): Promise<{ tree: ThoughtTree; events: ExplorationEvent[] }> {
  const events: ExplorationEvent[] = [];
  const executor = new ThoughtTreeExecutor({
    explorationStrategy: 'beam',
    beamWidth: 3,
    branchFactor: 4,
    maxDepth: 4,
    terminationConfidence: 1,
  });
  await executor.explore({ name: 't', model: createSimulatedModel({ seed }) }, '4 9 10 13', {
    task: getTaskEntry('game24').task,
    onEvent: (e) => events.push(e),
  });
  return { tree: fold(events), events };
}

export function makeNode(
  id: string,
  parentId: string | null,
  depth: number,
  branch: ThoughtBranch | null,
): ThoughtNode {
  return newNode({
    id,
    parentId,
    depth,
    branch,
    score: null,
    cumulativeScore: 0,
    status: 'completed',
    createdSeq: 0,
    result:
      branch?.proposedAction.type === 'response'
        ? { response: branch.proposedAction.content, iterations: 0, isAnswer: false }
        : null,
  });
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
