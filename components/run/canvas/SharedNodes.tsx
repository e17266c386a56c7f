'use client';
// Which nodes a run shares with the run it is compared to (same path of thoughts from the goal): the compare page
// provides them, node cards mark them. Empty everywhere else.
import { createContext, useContext } from 'react';

export const SharedNodesContext = createContext<ReadonlySet<string>>(new Set());

export const useIsShared = (nodeId: string) => useContext(SharedNodesContext).has(nodeId);
