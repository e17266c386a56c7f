'use client';
// Which way the tree grows on the canvas, for the node components' connection points (top/bottom or left/right).
import { Handle, Position } from '@xyflow/react';
import { createContext, useContext } from 'react';
import type { Orientation } from '@/lib/layout/index';

export const OrientationContext = createContext<Orientation>('tb');

/** The in and out connection points of a node, on the sides the tree's edges come from and go to. */
export function NodeHandles() {
  const orientation = useContext(OrientationContext);
  return (
    <>
      <Handle type="target" position={orientation === 'tb' ? Position.Top : Position.Left} isConnectable={false} />
      <Handle type="source" position={orientation === 'tb' ? Position.Bottom : Position.Right} isConnectable={false} />
    </>
  );
}
