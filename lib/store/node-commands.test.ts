import { beforeAll, describe, expect, it } from 'vitest';
import { createEmptyTree, type ThoughtNode, type ThoughtTree } from '@/lib/engine/index';
import { checkCommand } from '@/lib/engine/server';
import { recordGame24, type RecordedLog } from '../tasks/testing/recorded';
import { STEER_KINDS, type SteerKind } from '@/lib/contract/vocabulary';
import { breakpointsBlock, navigate, steerBlock, type SteerContext } from './node-commands';

let run: RecordedLog;
beforeAll(async () => {
  run = await recordGame24();
});

const engine = (status: string): SteerContext => ({ allowed: true, status, external: null, agentName: 'arborist' });
const running = engine('running');
const node = (patch: Partial<ThoughtNode>) => ({ id: 'n3', parentId: 'n1', status: 'pending' as const, ...patch });

describe('steerBlock on a search Arborist runs', () => {
  it('allows a live run’s nodes', () => {
    expect(steerBlock('prune', running, node({}))).toBeNull();
    expect(steerBlock('prune', running, node({ status: 'failed' }))).toBeNull();
    expect(steerBlock('expand', running, node({}))).toBeNull();
    expect(steerBlock('expand', engine('paused'), node({}))).toBeNull();
  });

  it('refuses a finished run first, then the root, then a pruned node', () => {
    expect(steerBlock('prune', engine('finished'), node({ parentId: null }))).toBe('the run has finished');
    expect(steerBlock('expand', engine('failed'), node({}))).toBe('the run has finished');
    expect(steerBlock('prune', running, node({ parentId: null }))).toBe(
      'the root cannot be pruned; abort the run instead',
    );
    expect(steerBlock('prune', running, node({ status: 'pruned' }))).toBe('node n3 is already pruned');
  });

  it('refuses a queued or interrupted run as the server does, but aborts a queued one and resumes an interrupted one', () => {
    expect(steerBlock('expand', engine('queued'), node({}))).toMatch(/queued/);
    expect(steerBlock('abort', engine('queued'))).toBeNull();
    expect(steerBlock('prune', engine('interrupted'), node({}))).toMatch(/resume it first/);
    expect(steerBlock('resume', engine('interrupted'))).toBeNull();
  });

  it('pauses a running run, resumes and steps a paused one, aborts either', () => {
    expect(steerBlock('pause', running)).toBeNull();
    expect(steerBlock('pause', engine('paused'))).toBe('the run is already paused');
    expect(steerBlock('resume', running)).toBe('the run is not paused');
    expect(steerBlock('resume', engine('paused'))).toBeNull();
    expect(steerBlock('step', running)).toMatch(/pause it first/);
    expect(steerBlock('step', engine('paused'))).toBeNull();
    expect(steerBlock('abort', engine('paused'))).toBeNull();
    expect(steerBlock('pause', engine('loading'))).toBe('the run is loading');
  });

  it('refuses everything to someone who may only read the run', () => {
    for (const kind of STEER_KINDS) expect(steerBlock(kind, { ...running, allowed: false }, node({}))).toMatch(/read/);
  });

  it('agrees with the engine’s own check on prune and expand', () => {
    const tree: ThoughtTree = { ...createEmptyTree('r'), nodes: run.tree.nodes, status: 'running' };
    for (const n of Object.values(run.tree.nodes)) {
      for (const status of ['running', 'finished'] as const) {
        const t = { ...tree, status };
        expect(steerBlock('prune', engine(status), n)).toBe(
          checkCommand(t, { type: 'prune', nodeId: n.id, actor: 'a' }),
        );
        expect(steerBlock('expand', engine(status), n)).toBe(
          checkCommand(t, { type: 'expand', nodeId: n.id, actor: 'a' }),
        );
      }
    }
  });
});

describe('steerBlock on a search Arborist does not run', () => {
  const external = (commands: SteerKind[], status = 'running'): SteerContext => ({
    allowed: true,
    status,
    external: { commands },
    agentName: 'my-mcts',
  });

  it('says steering is unavailable, naming the program, when its client takes no commands', () => {
    for (const kind of STEER_KINDS) {
      expect(steerBlock(kind, external([]), node({}))).toBe(
        'steering is unavailable: my-mcts does not listen for commands',
      );
    }
  });

  it('allows the commands the client takes and names each one it does not', () => {
    const ctx = external(['prune', 'pause']);
    expect(steerBlock('prune', ctx, node({}))).toBeNull();
    expect(steerBlock('pause', ctx)).toBeNull();
    expect(steerBlock('expand', ctx, node({}))).toBe('this search does not take expand commands');
    expect(steerBlock('abort', ctx)).toBe('this search does not take abort commands');
  });

  it('puts who may steer first, what the client takes next, then the run’s state and the node', () => {
    expect(steerBlock('expand', { ...external(['prune']), allowed: false }, node({}))).toMatch(/read/);
    expect(steerBlock('expand', external(['prune'], 'finished'), node({}))).toBe('the run has finished');
    expect(steerBlock('pause', external([], 'finished'))).toBe('the run has finished');
    expect(steerBlock('prune', external(['prune'], 'finished'), node({}))).toBe('the run has finished');
    expect(steerBlock('prune', external(['prune']), node({ parentId: null }))).toMatch(/root/);
  });

  it('says a quiet client (interrupted) takes nothing, resume included', () => {
    const ctx = external(['prune', 'resume'], 'interrupted');
    expect(steerBlock('resume', ctx)).toBe('the run is interrupted: my-mcts has stopped sending');
    expect(steerBlock('prune', ctx, node({}))).toBe('the run is interrupted: my-mcts has stopped sending');
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

describe('breakpointsBlock: who may change a live run’s breakpoints, and when', () => {
  it('lets a person who may steer change them on a running or paused run', () => {
    expect(breakpointsBlock(engine('running'))).toBeNull();
    expect(breakpointsBlock(engine('paused'))).toBeNull();
  });

  it('says why not for a reader, an ended, queued or loading run, and a client that takes no pause', () => {
    expect(breakpointsBlock({ ...engine('running'), allowed: false })).toBe('you may read this run, not steer it');
    expect(breakpointsBlock(engine('finished'))).toBe('the run has finished');
    expect(breakpointsBlock(engine('queued'))).toBe('the run is queued and has not started yet');
    expect(breakpointsBlock(engine('loading'))).toBe('the run is loading');
    const client = (commands: SteerKind[]): SteerContext => ({
      allowed: true,
      status: 'running',
      external: { commands },
      agentName: 'my-agent',
    });
    expect(breakpointsBlock(client(['prune']))).toBe(
      'breakpoints pause the search, and my-agent does not take pause commands',
    );
    expect(breakpointsBlock(client(['pause', 'resume']))).toBeNull();
  });
});
