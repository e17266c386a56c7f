/**
 * Why the inspector's "Prune branch" and "Expand again" buttons are disabled, in the server's own words, so a
 * person sees the reason before asking (the server still checks: engine/control.ts checkCommand and the run
 * manager). Also the arrow-key walk through the tree. Pure and React-free so it is unit-tested.
 * Not responsible for sending commands (Inspector.tsx, through the node.prune / node.expand mutations).
 */
import type { RunStatus, ThoughtNode, ThoughtTree } from '@/lib/engine/index';

/** The run's state as the browser knows it: the folded tree's status and, when loaded, the stored run's. */
export interface RunState {
  treeStatus: RunStatus;
  /** run.byId's status ('queued', 'interrupted', 'failed', ...), or null while it loads. */
  recordStatus: string | null;
}

function runBlock({ treeStatus, recordStatus }: RunState): string | null {
  if (treeStatus === 'finished' || recordStatus === 'finished' || recordStatus === 'failed') {
    return 'the run has finished';
  }
  if (recordStatus === 'queued') return 'the run is queued and has not started yet';
  if (recordStatus === 'interrupted') return 'the run was interrupted by a server restart: resume it first';
  return null;
}

/** Why this node cannot be pruned now, or null when it can. */
export function pruneBlock(node: Pick<ThoughtNode, 'id' | 'parentId' | 'status'>, run: RunState): string | null {
  return (
    runBlock(run) ??
    (node.parentId === null ? 'the root cannot be pruned; abort the run instead' : null) ??
    (node.status === 'pruned' ? `node ${node.id} is already pruned` : null)
  );
}

/** Why this node cannot be expanded again now, or null when it can. */
export function expandBlock(run: RunState): string | null {
  return runBlock(run);
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
