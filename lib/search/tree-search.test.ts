import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { fold, type ThoughtNode, type ThoughtTree } from '../engine/index';
import { searchedGame24 } from '../tasks/testing/trees';
import { buildSearchIndex, hitSnippet, preOrder, searchIndex, searchTree } from './tree-search';

const game = searchedGame24;

/** Every text of a node the slow way: the reference the index must agree with. */
function textsOf(tree: ThoughtTree, node: ThoughtNode, events: ExplorationEvent[]): string[] {
  const texts = [
    node.parentId === null ? tree.goal : '',
    node.branch?.thought ?? '',
    node.branch?.proposedAction.type === 'response' ? node.branch.proposedAction.content : '',
    node.result?.response ?? '',
    node.verification?.trace ?? '',
    node.failureReason ?? '',
  ];
  for (const seq of node.modelCallSeqs) {
    const e = events[seq - 1];
    if (e?.type === 'model.called') texts.push(e.payload.response ?? '');
  }
  return texts;
}

const node = (tree: ThoughtTree, id: string) => tree.nodes[id] as ThoughtNode;

describe('tree search', () => {
  it('walks the tree in pre-order, children in order', async () => {
    const { tree } = await game();
    const order = preOrder(tree);
    expect(order[0]).toBe(tree.rootId);
    expect(new Set(order).size).toBe(tree.nodeOrder.length);
    // every node comes right after its previous sibling's whole subtree, or right after its parent
    for (const id of order.slice(1)) {
      const parent = node(tree, node(tree, id).parentId as string);
      const i = parent.childIds.indexOf(id);
      const before = order.indexOf(i === 0 ? parent.id : (parent.childIds[i - 1] as string));
      expect(before).toBeLessThan(order.indexOf(id));
    }
  });

  it('finds, case-insensitively and in tree order, exactly the nodes a slow scan of their texts finds', async () => {
    const { tree, events } = await game();
    const index = buildSearchIndex(tree, events);
    for (const query of ['LEFT', '24', '(left: 1', 'verified', 'Answer', 'zzz-not-there']) {
      const slow = preOrder(tree).filter((id) =>
        textsOf(tree, node(tree, id), events).some((t) => t.toLowerCase().includes(query.toLowerCase())),
      );
      expect(
        searchIndex(index, query).map((h) => h.nodeId),
        query,
      ).toEqual(slow);
    }
    expect(searchIndex(index, '   ')).toEqual([]);
  });

  it('says which field matched: a thought, a result, a verification trace, a failure reason, a model response', async () => {
    const { tree, events } = await game();
    const nodes = tree.nodeOrder.map((id) => node(tree, id));
    const deep = nodes.find((n) => n.depth === 3 && n.branch) as ThoughtNode;
    const thoughtHit = searchTree(tree, events, deep.branch!.thought.toUpperCase()).find((h) => h.nodeId === deep.id);
    expect(thoughtHit).toMatchObject({ field: 'thought', at: 0 });

    const withTrace = nodes.find((n) => n.verification?.passed && n.depth === 1) as ThoughtNode;
    const trace = withTrace.verification!.trace; // "9 + 10 = 19 is right; from 4 9 10 13, 4 13 19 are left"
    expect(searchTree(tree, events, trace).find((h) => h.nodeId === withTrace.id)?.field).toBe('verification');

    // a failure that is not a verification's: the reason alone says it
    const failed = nodes.find((n) => n.status === 'failed') as ThoughtNode;
    tree.nodes[failed.id] = { ...failed, failureReason: 'the model refused: Quota Exceeded', verification: null };
    const failureHit = searchTree(tree, events, 'quota exceeded').find((h) => h.nodeId === failed.id);
    expect(failureHit).toMatchObject({ field: 'failure', at: 'the model refused: '.length });

    // the root's generation call answered with its children's thoughts: the root matches by its model response
    const root = node(tree, tree.rootId!);
    const child = node(tree, root.childIds[0]!);
    const rootHit = searchTree(tree, events, child.branch!.thought).find((h) => h.nodeId === root.id);
    expect(rootHit).toMatchObject({ field: 'response', purpose: 'generate' });
    expect(root.modelCallSeqs).toContain(rootHit!.seq);
  });

  it('searches what is loaded, counts the model calls still missing, and finds them once their events arrive', async () => {
    const { tree, events } = await game();
    const root = node(tree, tree.rootId!);
    const thought = node(tree, root.childIds[0]!).branch!.thought;
    // history not loaded yet: the tree is there, the events are not
    const early = buildSearchIndex(tree, []);
    expect(early.missingCalls).toBe(tree.nodeOrder.reduce((s, id) => s + node(tree, id).modelCallSeqs.length, 0));
    expect(searchIndex(early, thought).map((h) => h.nodeId)).not.toContain(root.id);
    const sparse: ExplorationEvent[] = [];
    sparse.length = events.length; // a lazily filled log: holes where pages have not arrived
    const later = buildSearchIndex(tree, sparse);
    expect(later.missingCalls).toBe(early.missingCalls);
    const loaded = buildSearchIndex(tree, events);
    expect(loaded.missingCalls).toBe(0);
    expect(searchIndex(loaded, thought).map((h) => h.nodeId)).toContain(root.id);
  });

  it('follows a new tree version: a node that gets a result is found by it', async () => {
    const { events } = await game();
    const completed = events.findIndex((e) => e.type === 'node.completed');
    const tree = fold(events.slice(0, completed));
    const before = buildSearchIndex(tree, events);
    const event = events[completed] as Extract<ExplorationEvent, { type: 'node.completed' }>;
    const marker = event.payload.result.response;
    const owner = event.payload.nodeId;
    expect(searchIndex(before, marker).find((h) => h.nodeId === owner && h.field === 'result')).toBeUndefined();
    fold([event], tree);
    const after = buildSearchIndex(tree, events);
    expect(searchIndex(after, marker).find((h) => h.nodeId === owner)).toBeDefined();
  });

  it('gives the words around a hit in their own case, as plain strings', async () => {
    const { tree, events } = await game();
    const deep = tree.nodeOrder.map((id) => node(tree, id)).find((n) => n.depth === 2 && n.branch) as ThoughtNode;
    const thought = deep.branch!.thought;
    const word = thought.slice(2, 6).trim(); // the query is trimmed
    const index = buildSearchIndex(tree, events);
    const hit = searchIndex(index, word.toLowerCase()).find((h) => h.nodeId === deep.id && h.field === 'thought');
    expect(hit).toBeDefined();
    const snippet = hitSnippet(index, hit!)!;
    expect(snippet.label).toBe('thought');
    expect(snippet.before + snippet.match + snippet.after).toBe(thought.replace(/\s+/g, ' '));
    expect(snippet.match).toBe(word);
    const long = hitSnippet(index, hit!, 1)!;
    expect(long.match).toBe(word);
    expect(long.after.endsWith('…')).toBe(true);
  });
});
