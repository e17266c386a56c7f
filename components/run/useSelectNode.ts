'use client';
// Selecting a node from outside the canvas (the inspector's parent and children, the event log, the arrow keys):
// store.select, then the canvas pans to the node when it is out of view, keeping the zoom.
// Not responsible for selection on the canvas itself (RunCanvas) or for where nodes are placed (lib/layout).
import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';
import { useRunStore } from './RunStoreContext';

export function useSelectNode(): (nodeId: string | null) => void {
  const select = useRunStore((s) => s.select);
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  return useCallback(
    (nodeId: string | null) => {
      select(nodeId);
      if (!nodeId) return;
      const node = flow.getInternalNode(nodeId);
      if (!node) return;
      const { width, height, transform } = flowStore.getState();
      const [tx, ty, zoom] = transform;
      const w = node.measured.width ?? 0;
      const h = node.measured.height ?? 0;
      const { x, y } = node.internals.positionAbsolute;
      const left = x * zoom + tx;
      const top = y * zoom + ty;
      const inView = left >= 0 && top >= 0 && left + w * zoom <= width && top + h * zoom <= height;
      if (!inView) void flow.setCenter(x + w / 2, y + h / 2, { zoom, duration: 250 });
    },
    [select, flow, flowStore],
  );
}
