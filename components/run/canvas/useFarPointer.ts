'use client';
// The far zoom level has no DOM per item (one canvas draws the scene): clicks, hovers and right clicks land on the
// pane, and this hook hit-tests them against the scene, selects or opens what was hit, and shows its text in a
// tooltip. Not responsible for drawing the scene (LodCanvas.tsx) nor for the near levels (React Flow's own nodes).
import { useReactFlow } from '@xyflow/react';
import { useRef, type MouseEvent as ReactMouseEvent } from 'react';
import { type CanvasElements, sceneItemAt, type SceneItem } from '@/lib/layout/index';
import { useRunStoreApi } from '../page/RunStoreContext';

/** `elements.scene` is read only at the far level (it is built on first read: canvas-elements.ts). */
export function useFarPointer(elements: Pick<CanvasElements, 'scene'>, far: boolean) {
  const flow = useReactFlow();
  const store = useRunStoreApi();
  const tooltip = useRef<HTMLDivElement>(null);

  function itemAt(event: ReactMouseEvent): SceneItem | null {
    if (!far) return null;
    const p = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    return sceneItemAt(elements.scene, p.x, p.y, 3 / flow.getZoom());
  }
  function activate(item: SceneItem | null) {
    const state = store.getState();
    if (!item) state.select(null);
    else if (item.nodeId) state.select(item.nodeId);
    else if (item.kind === 'dropped') state.select(item.id.split(':')[1] ?? null);
    else state.toggleFold(item.id);
  }
  function showTooltip(event: ReactMouseEvent) {
    const el = tooltip.current;
    if (!el) return;
    const item = itemAt(event);
    if (!item) {
      el.hidden = true;
      return;
    }
    el.textContent = item.label.length > 280 ? `${item.label.slice(0, 279)}…` : item.label;
    el.style.left = `${event.clientX + 14}px`;
    el.style.top = `${event.clientY + 14}px`;
    el.hidden = false;
  }
  function hideTooltip() {
    if (tooltip.current) tooltip.current.hidden = true;
  }
  return { tooltip, itemAt, activate, showTooltip, hideTooltip };
}
