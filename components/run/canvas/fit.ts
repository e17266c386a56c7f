'use client';
/**
 * How the canvas frames things: the whole tree ("fit"), a few nodes (a focus request), or one node at a readable
 * zoom. Frames come from the canvas's layout (useCanvasModel.ts), not from React Flow's nodes, because at the far
 * zoom level React Flow holds no nodes at all. The arithmetic is lib/layout/fit.ts; this hook applies it.
 * Not responsible for where items go (lib/layout/place.ts).
 */
import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';
import { boxOf, fitViewport, READABLE_ZOOM, viewportFor } from '@/lib/layout/index';
import { useCanvasLayoutNow } from './useCanvasModel';

/**
 * frame(nodeIds): null frames the whole tree (max zoom 1); one node is centred at a readable zoom; several are
 * framed together (max zoom 1). Returns false when nothing is laid out yet.
 */
export function useFrame() {
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  const layoutNow = useCanvasLayoutNow();
  return useCallback(
    (nodeIds: readonly string[] | null, duration = 250): boolean => {
      const box = boxOf(layoutNow(), nodeIds);
      if (!box) return false;
      const { width, height } = flowStore.getState();
      if (width === 0 || height === 0) return false;
      if (nodeIds?.length === 1) {
        void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: READABLE_ZOOM, duration });
        return true;
      }
      void flow.setViewport(nodeIds === null ? fitViewport(box, width, height) : viewportFor(box, width, height), {
        duration,
      });
      return true;
    },
    [flow, flowStore, layoutNow],
  );
}
