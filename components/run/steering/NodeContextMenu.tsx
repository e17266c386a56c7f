'use client';
// Right-click on a node: prune its branch, expand it again, run to here (a one-shot breakpoint that stops the run
// right before the node runs, resuming a paused run), fork from it (each for whoever may: RunAccess.tsx), copy its
// id. A command that cannot be asked now is disabled with its reason (useSteering.ts). Closes on Escape or a click
// elsewhere.
import { useEffect, useRef } from 'react';
import { breakpointsBlock } from '@/lib/store/index';
import { useBreakpoints } from '../breakpoints/useBreakpoints';
import { useRunAccess } from '../page/RunAccess';
import { useRunStore } from '../page/RunStoreContext';
import type { RunCommands } from './useRunCommands';
import { useSteering } from './useSteering';

export function NodeContextMenu({
  nodeId,
  x,
  y,
  commands,
  onFork,
  onClose,
}: {
  nodeId: string;
  x: number;
  y: number;
  commands: RunCommands;
  onFork: (nodeId: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const node = useRunStore((s) => s.tree.nodes[nodeId]);
  const allowed = useRunAccess();
  const { why, context } = useSteering();
  // queued: in the live frontier; a node the search has not run yet may still be queued later (a pending child)
  const queued = useRunStore((s) => s.tree.frontier[nodeId] !== undefined);
  const breakpoints = useBreakpoints(commands);
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    const onDown = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && onClose();
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onDown);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onDown);
    };
  }, [onClose]);
  if (!node) return null;
  const pruneWhy = why('prune', node);
  const expandWhy = why('expand', node);
  const runToWhy =
    breakpointsBlock(context) ??
    (queued || node.status === 'pending' ? null : `node ${nodeId} is ${node.status}: it will not run again`);
  const act = (fn: () => void) => () => {
    fn();
    onClose();
  };
  return (
    <div ref={ref} className="context-menu" role="menu" style={{ left: x, top: y }} data-testid="node-menu">
      <div className="context-menu-title mono">{nodeId}</div>
      {allowed.steer && (
        <button
          role="menuitem"
          disabled={pruneWhy !== null}
          title={pruneWhy ?? undefined}
          onClick={act(() => commands.prune(nodeId))}
        >
          Prune branch <kbd>p</kbd>
        </button>
      )}
      {allowed.steer && (
        <button
          role="menuitem"
          disabled={expandWhy !== null}
          title={expandWhy ?? undefined}
          onClick={act(() => commands.expand(nodeId))}
        >
          Expand again <kbd>e</kbd>
        </button>
      )}
      {allowed.steer && (
        <button
          role="menuitem"
          disabled={runToWhy !== null}
          title={runToWhy ?? 'Stop the run right before this node runs'}
          onClick={act(() => void breakpoints.runTo(nodeId))}
        >
          Run to here
        </button>
      )}
      {allowed.fork && (
        <button role="menuitem" onClick={act(() => onFork(nodeId))}>
          Fork from here…
        </button>
      )}
      <button role="menuitem" onClick={act(() => void navigator.clipboard?.writeText(nodeId))}>
        Copy node id
      </button>
    </div>
  );
}
