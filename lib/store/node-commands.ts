/**
 * What a person may ask of a run now, and why not, in the server's own words: one decision for every steering
 * control of the run page (the header's pause, resume, step and abort, the canvas menu's and the inspector's prune and
 * expand, their keys), so a control is disabled with the reason a person reads before asking (the server still
 * checks: engine/control.ts checkCommand, the run manager, and for a search Arborist does not run the ingest side).
 * Also the arrow-key walk through the tree. Pure and React-free so it is unit-tested.
 * Not responsible for sending commands (components/run/steering/useRunCommands.ts) nor for who may steer (permissions.ts:
 * its answer comes in as `allowed`).
 */
import { clientName, externalSteerBlock, type SteerTaker } from '@/lib/contract/steering';
import type { SteerKind } from '@/lib/contract/vocabulary';
import type { ThoughtNode, ThoughtTree } from '@/lib/engine/index';
import { hasEnded } from '../contract/run-status';

/** What the decision reads of the run; the page builds it once (components/run/steering/useSteering.ts). */
export interface SteerContext {
  /** Whether the person here may steer this run at all (RunPermissions.steer). */
  allowed: boolean;
  /** The run's status as the page shows it (runStatus: the record, then the live tree), or 'loading'. */
  status: string;
  /** run.started's `external` (null: Arborist runs the search and takes every command). */
  external: SteerTaker | null;
  /** The program that runs an external search, as its run.started names it. */
  agentName: string;
}

/** The node a prune or an expansion names. */
export type SteerTarget = Pick<ThoughtNode, 'id' | 'parentId' | 'status'>;

/** A run state in which no command is taken (but abort of a queued run, resume of an interrupted one). */
function statusBlock(kind: SteerKind, { status, external, agentName }: SteerContext): string | null {
  if (status === 'queued' && kind !== 'abort') return 'the run is queued and has not started yet';
  if (status === 'interrupted') {
    // an external run is interrupted when its client stopped sending: nothing here can bring it back
    if (external) return `the run is interrupted: ${clientName(agentName) ?? 'the client'} has stopped sending`;
    if (kind !== 'resume') return 'the run was interrupted by a server restart: resume it first';
  }
  return null;
}

/** The run-level commands' own rules (the header's), once the run takes commands at all. */
function runCommandBlock(kind: Exclude<SteerKind, 'prune' | 'expand'>, status: string): string | null {
  if (status === 'loading') return 'the run is loading';
  switch (kind) {
    case 'pause':
      return status === 'running' ? null : status === 'paused' ? 'the run is already paused' : 'the run is not running';
    case 'resume':
      return status === 'paused' || status === 'interrupted' ? null : 'the run is not paused';
    case 'step':
      return status === 'paused' ? null : 'a step is taken from a paused run: pause it first';
    case 'abort':
      return ['running', 'paused', 'queued'].includes(status) ? null : 'the run is not running';
  }
}

/**
 * Why `kind` cannot be asked of this run now, or null when it can. In order: who may steer, what the search takes
 * (an external client names its commands: lib/contract/steering.ts), the run's state, then the command's own rule
 * (a prune names a node that is not the root and not pruned already). `node` is the node a prune or an expansion
 * names.
 */
export function steerBlock(kind: SteerKind, ctx: SteerContext, node?: SteerTarget): string | null {
  if (!ctx.allowed) return 'you may read this run, not steer it';
  // a run that has ended takes nothing from anyone: that, not what its client takes, is why
  if (hasEnded(ctx.status)) return 'the run has finished';
  const block = externalSteerBlock(ctx.external, ctx.agentName, kind) ?? statusBlock(kind, ctx);
  if (block) return block;
  switch (kind) {
    case 'prune':
      if (node?.parentId === null) return 'the root cannot be pruned; abort the run instead';
      return node?.status === 'pruned' ? `node ${node.id} is already pruned` : null;
    case 'expand':
      return null;
    default:
      return runCommandBlock(kind, ctx.status);
  }
}

/**
 * Why this person cannot change a live run's breakpoints now, or null when they can. A breakpoint pauses the search,
 * so a search Arborist does not run must take pause commands (the server refuses the list otherwise). An ended run
 * has none to change: its list is the page's own query then (not this decision).
 */
export function breakpointsBlock(ctx: SteerContext): string | null {
  if (!ctx.allowed) return 'you may read this run, not steer it';
  if (hasEnded(ctx.status)) return 'the run has finished';
  if (ctx.external && !ctx.external.commands.includes('pause')) {
    return `breakpoints pause the search, and ${clientName(ctx.agentName) ?? 'its client'} does not take pause commands`;
  }
  return statusBlock('pause', ctx) ?? (ctx.status === 'loading' ? 'the run is loading' : null);
}

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

/**
 * The node an arrow key moves to: up to the parent, down to the first child, left and right to the siblings.
 * With nothing selected any arrow selects the root. Null when there is nowhere to go.
 */
export function navigate(
  tree: Pick<ThoughtTree, 'nodes' | 'rootId'>,
  selectedId: string | null,
  key: NavKey,
): string | null {
  const node = selectedId ? tree.nodes[selectedId] : undefined;
  if (!node) return tree.rootId;
  switch (key) {
    case 'ArrowUp':
      return node.parentId;
    case 'ArrowDown':
      return node.childIds[0] ?? null;
    case 'ArrowLeft':
    case 'ArrowRight': {
      const siblings = node.parentId ? (tree.nodes[node.parentId]?.childIds ?? []) : [];
      const at = siblings.indexOf(node.id);
      if (at < 0) return null;
      return siblings[at + (key === 'ArrowLeft' ? -1 : 1)] ?? null;
    }
  }
}
