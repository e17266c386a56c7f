/**
 * The part two trees have in common: nodes reached by the same path of thoughts from the goal (a fork and its
 * parent share the copied path; two strategies on one puzzle share their common first steps).
 * Pure; used by the compare page to mark both sides.
 */
import type { ThoughtTree } from '../engine/index';

function pathKeys(tree: ThoughtTree): Map<string, string> {
  const keys = new Map<string, string>(); // node id -> key
  for (const id of tree.nodeOrder) {
    const node = tree.nodes[id];
    if (!node) continue;
    const parentKey = node.parentId ? keys.get(node.parentId) : '';
    keys.set(id, node.parentId === null ? `goal:${tree.goal}` : `${parentKey}\u0000${node.branch?.thought ?? ''}`);
  }
  return keys;
}

/** The ids of the shared nodes on each side. */
export function sharedPrefix(a: ThoughtTree, b: ThoughtTree): { a: Set<string>; b: Set<string> } {
  const ka = pathKeys(a);
  const kb = pathKeys(b);
  const inB = new Set(kb.values());
  const inA = new Set(ka.values());
  return {
    a: new Set([...ka].filter(([, k]) => inB.has(k)).map(([id]) => id)),
    b: new Set([...kb].filter(([, k]) => inA.has(k)).map(([id]) => id)),
  };
}
