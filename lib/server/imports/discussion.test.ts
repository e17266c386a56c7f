// A run's discussion (issue 34) travels with its export file, on SQLite and PostgreSQL: exported only when there is
// one, imported back with its threads, tombstone, authors, steps and labels under new ids, staged with the run; the
// imported run's log and tree are those of the same file without it; a discussion that names what the log lacks is
// refused with its path and writes nothing.
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import type { RunExport } from '../../formats/index';
import { exportRun, importRun } from './imports';
import { listEvents } from '../run-log/index';
import { listComments, listLabels } from '../repositories/discussion';
import { BACKENDS } from '../testing/db';
import { testContext } from '../testing/context';
import { servicesPerTest, settledGame24Run, type TestServices } from '../testing/services';
import { createCaller } from '../trpc/routers/root';

const testServices = servicesPerTest();

const stripRunId = (events: ExplorationEvent[]) => events.map(({ runId: _runId, ...rest }) => rest);

/** The file as JSON would carry it (dates as text, no undefined). */
const asJson = (file: RunExport | null) => JSON.parse(JSON.stringify(file)) as RunExport;

/**
 * A finished run discussed by two people: a thread on n1 whose first was deleted (a tombstone with a reply), a thread
 * on n2 with a reply, a comment on the whole run, and two labels (one with a note).
 */
async function discussedRun(s: TestServices) {
  const runId = await settledGame24Run(s);
  const ada = createCaller(testContext(s, { actor: 'ada' }));
  const bo = createCaller(testContext(s, { actor: 'bo' }));
  const gone = await ada.comment.add({ runId, nodeId: 'n1', text: 'first on n1, deleted later', step: 4 });
  await bo.comment.add({ runId, replyTo: gone.id, text: 'a reply that keeps the thread', step: 6 });
  await ada.comment.delete({ id: gone.id });
  const onN2 = await bo.comment.add({ runId, nodeId: 'n2', text: 'why was this one scored so low?', step: 9 });
  await ada.comment.add({ runId, replyTo: onN2.id, text: 'the evaluator misread 13', step: 9 });
  await ada.comment.add({ runId, text: 'a comment on the whole run', step: 2 });
  await ada.label.set({ runId, nodeId: 'n1', label: 'good thought', note: 'the right first move', step: 3 });
  await bo.label.set({ runId, nodeId: 'n2', label: 'evaluator wrong', step: 9 });
  return runId;
}

/** A run's comments as threads: each first (text, author, step, node, deleted) with its replies, by the file's order. */
async function threadsOf(s: TestServices, runId: string) {
  const comments = await listComments(s.prisma, runId);
  const shape = (c: (typeof comments)[number]) => ({
    text: c.text,
    author: c.author.name,
    step: c.step,
    nodeId: c.nodeId,
    deleted: c.deleted,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt?.toISOString() ?? null,
  });
  return comments
    .filter((c) => c.replyTo === null)
    .map((first) => ({
      ...shape(first),
      replies: comments.filter((c) => c.replyTo === first.id).map(shape),
    }));
}

async function labelsOf(s: TestServices, runId: string) {
  return (await listLabels(s.prisma, runId)).map(({ nodeId, label, note, author, step, createdAt }) => ({
    nodeId,
    label,
    note,
    author: author.name,
    step,
    createdAt: createdAt.toISOString(),
  }));
}

async function counts(s: TestServices) {
  const [runs, events, comments, labels] = await Promise.all([
    s.prisma.run.count(),
    s.prisma.event.count(),
    s.prisma.comment.count(),
    s.prisma.label.count(),
  ]);
  return { runs, events, comments, labels };
}

describe.each(BACKENDS)("a run's discussion in its export file (%s)", (backend) => {
  it('is left out of the file of a run nobody discussed', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const file = asJson(await exportRun(s.prisma, runId));
    expect(Object.keys(file)).toEqual(['format', 'version', 'exportedAt', 'run', 'events']);
  });

  it('comes back on import: threads, tombstone, texts, authors, steps, nodes and labels with notes, under new ids', async () => {
    const s = await testServices.open(backend);
    const runId = await discussedRun(s);
    const file = asJson(await exportRun(s.prisma, runId));
    expect(file.discussion?.comments).toHaveLength(5);
    expect(file.discussion?.labels).toHaveLength(2);
    // the tombstone carries no text, and no author's user id goes into the file
    expect(file.discussion?.comments.find((c) => c.deleted)).toMatchObject({ text: '', nodeId: 'n1' });
    expect(JSON.stringify(file.discussion)).not.toContain('"id":null');

    const imported = await importRun(s.prisma, file);
    const threads = await threadsOf(s, imported.id);
    expect(threads).toEqual(await threadsOf(s, runId));
    expect(threads).toMatchObject([
      { text: '', deleted: true, nodeId: 'n1', replies: [{ text: 'a reply that keeps the thread', author: 'bo' }] },
      { text: 'why was this one scored so low?', author: 'bo', step: 9, nodeId: 'n2', replies: [{ author: 'ada' }] },
      { text: 'a comment on the whole run', nodeId: null, step: 2, replies: [] },
    ]);
    expect(await labelsOf(s, imported.id)).toEqual(await labelsOf(s, runId));
    expect(await labelsOf(s, imported.id)).toMatchObject([
      { nodeId: 'n1', label: 'good thought', note: 'the right first move', author: 'ada', step: 3 },
      { nodeId: 'n2', label: 'evaluator wrong', note: null, author: 'bo', step: 9 },
    ]);
    // the comments are the imported run's own rows: new ids, no author id (a user of another server means nothing)
    const sourceIds = new Set((await listComments(s.prisma, runId)).map((c) => c.id));
    const copies = await listComments(s.prisma, imported.id);
    expect(copies.some((c) => sourceIds.has(c.id))).toBe(false);
    expect(copies.every((c) => c.author.id === null)).toBe(true);
  });

  it("leaves the imported run's log and tree as the same file without its discussion gives them", async () => {
    const s = await testServices.open(backend);
    const runId = await discussedRun(s);
    const file = asJson(await exportRun(s.prisma, runId));
    const { discussion: _discussion, ...withoutDiscussion } = file;
    const withIt = await importRun(s.prisma, file);
    const withoutIt = await importRun(s.prisma, withoutDiscussion);
    expect((await listComments(s.prisma, withoutIt.id)).length).toBe(0);

    const events = await listEvents(s.prisma, withIt.id);
    expect(stripRunId(events)).toEqual(stripRunId(await listEvents(s.prisma, withoutIt.id)));
    expect(stripRunId(events)).toEqual(stripRunId(await listEvents(s.prisma, runId)));
    const tree = async (id: string) => {
      const row = await s.prisma.runSnapshot.findUniqueOrThrow({ where: { runId: id } });
      return { seq: row.seq, tree: { ...(JSON.parse(row.tree) as object), runId: 'x' } };
    };
    expect(await tree(withIt.id)).toEqual(await tree(withoutIt.id));
    const summary = ({ id: _i, importTag: _t, createdAt: _c, updatedAt: _u, ...rest }: typeof withIt) => rest;
    expect(summary(withIt)).toEqual(summary(withoutIt));
  });

  it('is staged with the run: unreadable until the swap-in, and deleted with the run when the import fails after it', async () => {
    const s = await testServices.open(backend);
    const file = asJson(await exportRun(s.prisma, await discussedRun(s)));
    const before = await counts(s);
    const api = createCaller(testContext(s));
    let seenStaged = false;
    const failing = importRun(s.prisma, file, {
      newId: () => 'staged-with-talk',
      chunkRows: 1,
      afterChunk: async () => {
        if ((await s.prisma.comment.count({ where: { runId: 'staged-with-talk' } })) === 0) return;
        seenStaged = true;
        await expect(api.comment.list({ runId: 'staged-with-talk' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        throw new Error('the import dies after its discussion was written');
      },
    });
    await expect(failing).rejects.toThrow('the import dies after its discussion was written');
    expect(seenStaged).toBe(true);
    expect(await counts(s)).toEqual(before);

    const stored = await importRun(s.prisma, file, { chunkRows: 1 });
    expect(await api.comment.list({ runId: stored.id })).toHaveLength(5);
    expect(await api.label.list({ runId: stored.id })).toHaveLength(2);
  });

  it("exports a reply written in the same millisecond as its thread's first after it, so the file imports", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const at = new Date('2025-05-06T07:08:09.010Z');
    const row = { runId, nodeId: 'n1', text: 'same moment', authorName: 'ada', step: 3, createdAt: at };
    // ids in the order that put the reply first when a thread is read by time and then by id
    await s.prisma.comment.create({ data: { ...row, id: 'b-first', replyTo: null } });
    await s.prisma.comment.create({ data: { ...row, id: 'a-reply', replyTo: 'b-first' } });
    const file = asJson(await exportRun(s.prisma, runId));
    expect(file.discussion?.comments.map((c) => c.id)).toEqual(['b-first', 'a-reply']);
    const imported = await importRun(s.prisma, file);
    expect(await threadsOf(s, imported.id)).toEqual(await threadsOf(s, runId));
  });

  it('refuses a file whose discussion names a node the log lacks, or replies to no comment of it, writing nothing', async () => {
    const s = await testServices.open(backend);
    const runId = await discussedRun(s);
    const file = asJson(await exportRun(s.prisma, runId));
    const before = await counts(s);

    const strayNode = asJson(file);
    const onRun = strayNode.discussion!.comments.findIndex((c) => c.nodeId === null);
    strayNode.discussion!.comments[onRun]!.nodeId = 'n99';
    await expect(importRun(s.prisma, strayNode)).rejects.toThrow(
      `discussion.comments[${onRun}].nodeId: no node n99 in the run's log`,
    );

    const strayLabel = asJson(file);
    strayLabel.discussion!.labels[1]!.nodeId = 'n99';
    await expect(importRun(s.prisma, strayLabel)).rejects.toThrow(
      "discussion.labels[1].nodeId: no node n99 in the run's log",
    );

    const strayReply = asJson(file);
    const reply = strayReply.discussion!.comments.findIndex((c) => c.replyTo !== null);
    strayReply.discussion!.comments[reply]!.replyTo = 'no-such-comment';
    await expect(importRun(s.prisma, strayReply)).rejects.toThrow(
      `discussion.comments[${reply}].replyTo: no-such-comment is not the first comment of a thread listed before this one`,
    );

    expect(await counts(s)).toEqual(before);
  });
});
