import { beforeAll, describe, expect, it } from 'vitest';
import { createEmptyTree, type ThoughtNode, type ThoughtTree } from '@/lib/engine/index';
import { checkCommand } from '@/lib/engine/server';
import { recordGame24, type RecordedRun } from '../tasks/testing/recorded';
import { expandBlock, navigate, pruneBlock, type RunState } from './node-commands';

let run: RecordedRun;
beforeAll(async () => {
  run = await recordGame24();
});

const running: RunState = { treeStatus: 'running', recordStatus: 'running' };
const node = (patch: Partial<ThoughtNode>) => ({ id: 'n3', parentId: 'n1', status: 'pending' as const, ...patch });

describe('pruneBlock and expandBlock', () => {
  it('allow a live run’s nodes', () => {
    expect(pruneBlock(node({}), running)).toBeNull();
    expect(pruneBlock(node({ status: 'failed' }), running)).toBeNull();
    expect(expandBlock(running)).toBeNull();
    expect(expandBlock({ treeStatus: 'paused', recordStatus: null })).toBeNull();
  });

  it('refuse a finished run first, then the root, then a pruned node', () => {
    const finished: RunState = { treeStatus: 'finished', recordStatus: 'finished' };
    expect(pruneBlock(node({ parentId: null }), finished)).toBe('the run has finished');
    expect(expandBlock(finished)).toBe('the run has finished');
    expect(expandBlock({ treeStatus: 'running', recordStatus: 'failed' })).toBe('the run has finished');
    expect(pruneBlock(node({ parentId: null }), running)).toBe('the root cannot be pruned; abort the run instead');
    expect(pruneBlock(node({ status: 'pruned' }), running)).toBe('node n3 is already pruned');
  });

  it('refuse a queued or interrupted run, as the server does', () => {
    expect(expandBlock({ treeStatus: 'running', recordStatus: 'queued' })).toMatch(/queued/);
    expect(pruneBlock(node({}), { treeStatus: 'running', recordStatus: 'interrupted' })).toMatch(/resume it first/);
  });

  it('agree with the engine’s own check', () => {
    const tree: ThoughtTree = { ...createEmptyTree('r'), nodes: run.tree.nodes, status: 'running' };
    for (const n of Object.values(run.tree.nodes)) {
      for (const status of ['running', 'finished'] as const) {
        const t = { ...tree, status };
        const state: RunState = { treeStatus: status, recordStatus: null };
        expect(pruneBlock(n, state)).toBe(checkCommand(t, { type: 'prune', nodeId: n.id, actor: 'a' }));
        expect(expandBlock(state)).toBe(checkCommand(t, { type: 'expand', nodeId: n.id, actor: 'a' }));
      }
    }
  });
});

describe('navigate', () => {
  it('walks the tree with the arrow keys', () => {
    const tree = run.tree;
    expect(navigate(tree, null, 'ArrowDown')).toBe('n0');
    expect(navigate(tree, 'gone', 'ArrowLeft')).toBe('n0');
    expect(navigate(tree, 'n0', 'ArrowDown')).toBe('n1');
    expect(navigate(tree, 'n0', 'ArrowUp')).toBeNull();
    expect(navigate(tree, 'n0', 'ArrowRight')).toBeNull();
    expect(navigate(tree, 'n1', 'ArrowUp')).toBe('n0');
    expect(navigate(tree, 'n1', 'ArrowRight')).toBe('n2');
    expect(navigate(tree, 'n2', 'ArrowLeft')).toBe('n1');
    expect(navigate(tree, 'n2', 'ArrowRight')).toBeNull();
    const leaf = Object.values(tree.nodes).find((n) => n.childIds.length === 0);
    expect(leaf && navigate(tree, leaf.id, 'ArrowDown')).toBeNull();
  });
});
