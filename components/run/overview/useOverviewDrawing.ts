'use client';
// The overview's two canvases, drawn when what they show changed: the cells (the tree, the colouring, the size or the
// theme) and, over them, the marks (the view's outline, search hits, discussed nodes, the active hit, selection and
// hover). Measures the plot with a ResizeObserver and redraws when the page's colour scheme changes.
// Not responsible for what is drawn (lib/layout's overview-draw.ts and overview-colours.ts) nor for pointer and keys
// (Overview.tsx).
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  drawCells,
  drawMarks,
  palette,
  prepare,
  themeVar,
  type CellColours,
  type Colouring,
  type IcicleLayout,
  type Marks,
} from '@/lib/layout/index';

/** Bumped when the page's colour scheme changes, so the cells are redrawn in the new theme's colours. */
function useThemeTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const bump = () => setTick((t) => t + 1);
    media.addEventListener('change', bump);
    const observer = new MutationObserver(bump); // an explicit data-theme on <html>
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      media.removeEventListener('change', bump);
      observer.disconnect();
    };
  }, []);
  return tick;
}

export function useOverviewDrawing(layout: IcicleLayout, colours: CellColours, colouring: Colouring, marks: Marks) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  const themeTick = useThemeTick();
  const plotRef = useRef<HTMLDivElement>(null);
  const cellsRef = useRef<HTMLCanvasElement>(null);
  const marksRef = useRef<HTMLCanvasElement>(null);

  useLayoutEffect(() => {
    const el = plotRef.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // the cells: only when the tree, the colouring, the size or the theme changed
  useEffect(() => {
    const canvas = cellsRef.current;
    if (!canvas || size.width === 0) return;
    const started = performance.now();
    const ctx = prepare(canvas, size.width, size.height, window.devicePixelRatio || 1);
    if (!ctx) return;
    const style = getComputedStyle(canvas);
    const drawn = drawCells(ctx, layout, size.width, size.height, colours.bucket, palette(style, colouring));
    canvas.dataset.drawn = String(drawn);
    canvas.dataset.drawMs = (performance.now() - started).toFixed(2);
  }, [layout, colours, colouring, size, themeTick]);

  // the marks: the view's outline, hits, discussed nodes, selection and hover
  const { view, hits, discussed, active, selected, hovered } = marks;
  useEffect(() => {
    const canvas = marksRef.current;
    if (!canvas || size.width === 0) return;
    const ctx = prepare(canvas, size.width, size.height, window.devicePixelRatio || 1);
    if (!ctx) return;
    const style = getComputedStyle(canvas);
    const text = themeVar(style, '--text', '#17202c');
    drawMarks(
      ctx,
      layout,
      size.width,
      size.height,
      { view, hits, discussed, active, selected, hovered },
      {
        view: themeVar(style, '--focus', '#2563eb'),
        hit: text,
        discussed: themeVar(style, '--discuss', '#0369a1'),
        discussedHalo: themeVar(style, '--surface', '#ffffff'),
        active: themeVar(style, '--best', '#7c3aed'),
        selected: themeVar(style, '--focus', '#2563eb'),
        hovered: text,
      },
    );
  }, [layout, size, view, hits, discussed, active, selected, hovered, themeTick]);

  return { plotRef, cellsRef, marksRef, size };
}
