'use client';
// The inspector: everything about the selected node. (Placeholder until the inspector lands.)
import { useRunStore } from '../RunStoreContext';

export function Inspector({ runId }: { runId: string }) {
  const selected = useRunStore((s) => s.selectedNodeId);
  void runId;
  return <aside className="inspector-placeholder">{selected ?? 'Select a node'}</aside>;
}
