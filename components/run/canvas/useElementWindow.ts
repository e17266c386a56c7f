'use client';
/**
 * The window of the canvas React Flow is handed elements for (lib/layout/element-window.ts), kept with the view: a
 * new window when the view leaves the current one or zooms far into it, none at the far level (nothing is handed
 * there). The viewport changes every frame of a pan; the window, and so the canvas's render, only now and then.
 * Not responsible for choosing the elements (the model's `within`) nor for moving the view (useCanvasCamera.ts).
 */
import { useStoreApi } from '@xyflow/react';
import { useEffect, useState } from 'react';
import { levelOf, viewRect, windowAround, windowServes, type Rect } from '@/lib/layout/index';

/** The current window, or null before the pane has a size (then nothing is handed yet). */
export function useElementWindow(): Rect | null {
  const flowStore = useStoreApi();
  const [shown, setShown] = useState<Rect | null>(null);
  useEffect(() => {
    let current: Rect | null = null;
    const follow = () => {
      const { transform, width, height } = flowStore.getState();
      const [x, y, zoom] = transform;
      if (!width || !height || levelOf(zoom) === 'shape') return;
      const view = viewRect({ x, y, zoom }, width, height);
      if (current && windowServes(current, view)) return;
      current = windowAround(view);
      setShown(current);
    };
    follow();
    return flowStore.subscribe(follow);
  }, [flowStore]);
  return shown;
}
