// A fork takes the discussion of the path it copies (issue 34), on SQLite and PostgreSQL: the comments (threads whole)
// and labels of the root, the path's nodes and the forked node land on the fork's own copies (renumbered ids, at the
// step each copy was made), those of other nodes and of the run as a whole stay with the source, and the fork's log is
// the one a fork of the same node without any discussion gets.
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { clockless, createEmptyTree, fold, type ThoughtTree } from '../../engine/index';
import { listComments, listLabels } from '../repositories/discussion';
import { listEvents } from '../run-log/index';
import { BACKENDS } from '../testing/db';
import { testContext } from '../testing/context';
import { servicesPerTest, settledGame24Run, type TestServices } from '../testing/services';
import { createCaller } from '../trpc/routers/root';

const testServices = servicesPerTest();

/** A node two levels below the root (the fork's target), its parent, and a node off their path. */
function pathAndElsewhere(tree: ThoughtTree) {
  const target = Object.values(tree.nodes).find((node) => node.depth === 2);
  if (!target?.parentId || tree.rootId === null) throw new Error('the sample run has no node two levels down');
  const off = Object.values(tree.nodes).find(
    (node) => node.depth === 1 && node.id !== target.parentId && node.id !== tree.rootId,
  );
  if (!off) throw new Error('the sample run has one child of its root only');
  return { root: tree.rootId, parent: target.parentId, target: target.id, off: off.id };
}

/** The fork's log without what differs between any two forks: its run id and what a clock decides. */
async function forkLog(s: TestServices, runId: string) {
  await s.manager.settled(runId);
  return (await listEvents(s.prisma, runId)).map((event) => ({ ...clockless(event), runId: 'fork' }));
}

/** The seq of the event that made a node of a log. */
function madeAt(events: readonly ExplorationEvent[], nodeId: string): number | undefined {
  return events.find((e) => (e.type === 'node.created' || e.type === 'node.restored') && e.payload.nodeId === nodeId)
    ?.seq;
}

describe.each(BACKENDS)("a fork and its source's discussion (%s)", (backend) => {
  it("copies the path's comments and labels onto its own nodes (from the root: the root's), leaves the rest, runs the same log", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const source = fold(await listEvents(s.prisma, runId), createEmptyTree(runId));
    const { root, parent, target, off } = pathAndElsewhere(source);

    // a fork before anyone said anything: the log every fork of this node gets
    const quiet = await s.manager.fork({ runId, nodeId: target });

    const ada = createCaller(testContext(s, { actor: 'ada' }));
    const bo = createCaller(testContext(s, { actor: 'bo' }));
    await ada.comment.add({ runId, nodeId: root, text: 'on the goal', step: 2 });
    const thread = await ada.comment.add({ runId, nodeId: parent, text: 'on the parent', step: 5 });
    await bo.comment.add({ runId, replyTo: thread.id, text: 'a reply on the parent', step: 7 });
    await bo.comment.add({ runId, nodeId: target, text: 'on the forked node', step: 9 });
    await ada.comment.add({ runId, nodeId: off, text: 'elsewhere', step: 9 });
    await ada.comment.add({ runId, text: 'on the whole run', step: 9 });
    await ada.label.set({ runId, nodeId: parent, label: 'good thought', note: 'keep this', step: 5 });
    await bo.label.set({ runId, nodeId: target, label: 'evaluator wrong', step: 9 });
    await bo.label.set({ runId, nodeId: off, label: 'should have pruned', step: 9 });
    const sourceComments = await listComments(s.prisma, runId);
    const sourceLabels = await listLabels(s.prisma, runId);

    const fork = await s.manager.fork({ runId, nodeId: target });
    const events = await listEvents(s.prisma, fork.run.id);
    const tree = fold(events, createEmptyTree(fork.run.id));
    // the fork's copies, found through its own tree: the forked node, its parent, the root
    const copy = { target: fork.nodeId, parent: tree.nodes[fork.nodeId]?.parentId, root: tree.rootId };
    // the forked node's parent is a node of the fork's own tree, not the source's id carried over
    expect(tree.nodes[copy.parent ?? '']?.id).toBe(copy.parent);
    expect(tree.nodes[copy.parent!]?.parentId).toBe(copy.root);
    expect([copy.parent, copy.target]).not.toEqual([parent, target]); // renumbered (n1 and n2 of the fork)

    const comments = await listComments(s.prisma, fork.run.id);
    expect(comments.map((c) => ({ text: c.text, author: c.author.name, nodeId: c.nodeId, step: c.step }))).toEqual([
      { text: 'on the goal', author: 'ada', nodeId: copy.root, step: madeAt(events, copy.root!) },
      { text: 'on the parent', author: 'ada', nodeId: copy.parent, step: madeAt(events, copy.parent!) },
      { text: 'a reply on the parent', author: 'bo', nodeId: copy.parent, step: madeAt(events, copy.parent!) },
      { text: 'on the forked node', author: 'bo', nodeId: copy.target, step: madeAt(events, copy.target) },
    ]);
    // the thread is the fork's own: its reply names the fork's copy of the first, not the source's
    const [, first, reply] = comments;
    expect(reply?.replyTo).toBe(first?.id);
    expect(sourceComments.some((c) => c.id === first?.id)).toBe(false);
    const labels = await listLabels(s.prisma, fork.run.id);
    expect(labels.map(({ nodeId, label, note, author }) => ({ nodeId, label, note, author: author.name }))).toEqual([
      { nodeId: copy.parent, label: 'good thought', note: 'keep this', author: 'ada' },
      { nodeId: copy.target, label: 'evaluator wrong', note: null, author: 'bo' },
    ]);

    // the source keeps all of its discussion, and the fork's log is the quiet fork's
    expect(await listComments(s.prisma, runId)).toEqual(sourceComments);
    expect(await listLabels(s.prisma, runId)).toEqual(sourceLabels);
    expect(await forkLog(s, fork.run.id)).toEqual(await forkLog(s, quiet.run.id));
    expect(await listComments(s.prisma, quiet.run.id)).toEqual([]);

    // a fork of the root copies the root's alone
    const fromRoot = await s.manager.fork({ runId, nodeId: root });
    await s.manager.settled(fromRoot.run.id);
    expect((await listComments(s.prisma, fromRoot.run.id)).map((c) => [c.text, c.nodeId])).toEqual([
      ['on the goal', fromRoot.nodeId],
    ]);
    expect(await listLabels(s.prisma, fromRoot.run.id)).toEqual([]);

    // a fork with the node's thought edited leaves that node's discussion behind (it spoke of the old words), not
    // its parent's
    const edited = await s.manager.fork({ runId, nodeId: target, thought: 'a thought of my own' });
    await s.manager.settled(edited.run.id);
    const editedTree = fold(await listEvents(s.prisma, edited.run.id), createEmptyTree(edited.run.id));
    expect(editedTree.nodes[edited.nodeId]?.branch?.thought).toBe('a thought of my own');
    expect((await listComments(s.prisma, edited.run.id)).map((c) => c.text)).toEqual([
      'on the goal',
      'on the parent',
      'a reply on the parent',
    ]);
    expect((await listLabels(s.prisma, edited.run.id)).map((l) => l.label)).toEqual(['good thought']);
  });
});
