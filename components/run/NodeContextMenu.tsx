'use client';
// Right-click on a node: prune its branch, expand it again, fork from it (each for whoever may: RunAccess.tsx),
// copy its id. Closes on Escape or a click elsewhere.
import { useEffect, useRef } from 'react';
import { useRunAccess } from './RunAccess';
import { useRunStore } from './RunStoreContext';
import type { RunCommands } from './useRunCommands';

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
  const finished = useRunStore((s) => s.tree.status === 'finished');
  const allowed = useRunAccess();
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
  const isRoot = node.parentId === null;
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
          disabled={finished || isRoot || node.status === 'pruned'}
          title={finished ? 'the run has finished' : isRoot ? 'the root cannot be pruned' : undefined}
          onClick={act(() => commands.prune(nodeId))}
        >
          Prune branch <kbd>p</kbd>
        </button>
      )}
      {allowed.steer && (
        <button role="menuitem" disabled={finished} onClick={act(() => commands.expand(nodeId))}>
          Expand again <kbd>e</kbd>
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
