// The comment and label routers through createCaller on real SQLite and real PostgreSQL: threads, edits and deletes,
// labels and their set, the refusals (each with its field, writing nothing), who may write in team mode, the run's
// stream telling a page of each change (after the log's end too, and across two instances of a cluster), and a run's
// log, fold and snapshot untouched by any of it.
// Not responsible for the export, import and fork of a discussion (imports/, runs/ tests) nor the page (e2e).
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Principal } from '../../contract/access';
import { createEmptyTree, fold } from '../../engine/index';
import { userPrincipal, principalFor } from '../auth/principal';
import { createUser } from '../auth/users';
import { listEvents } from '../run-log/events';
import { streamRunItems } from '../streaming/event-stream';
import { clusterPerTest } from '../testing/cluster';
import { BACKENDS } from '../testing/db';
import { servicesPerTest, settledGame24Run, type TestServices } from '../testing/services';
import { testContext, TEST_TEAM_AUTH as TEAM } from '../testing/context';
import { createContextInner } from './context';
import { createCaller } from './routers/root';

const testServices = servicesPerTest();
const clusters = clusterPerTest();

const local = (s: TestServices, actor = 'ada') => createCaller(testContext(s, { actor }));
const as = (s: TestServices, who: Principal) => createCaller(createContextInner(s, { who, auth: TEAM }));

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (!(error instanceof TRPCError)) return `not a TRPCError: ${String(error)}`;
    // as the API's error formatter words it (trpc.ts): a zod refusal's first issue, with its path
    const issue = error.cause instanceof ZodError ? error.cause.issues[0] : undefined;
    return `${error.code} ${issue ? `${issue.path.join('.')}: ${issue.message}` : error.message}`;
  }
}

/** What a run has stored about it: every table's rows that name it, as text. */
async function storedRun(s: TestServices, runId: string) {
  const [run, events, nodes, snapshot] = await Promise.all([
    s.prisma.run.findUnique({ where: { id: runId } }),
    listEvents(s.prisma, runId),
    s.prisma.node.findMany({ where: { runId }, orderBy: { nodeId: 'asc' } }),
    s.prisma.runSnapshot.findUnique({ where: { runId } }),
  ]);
  const { updatedAt: _, ...row } = run!;
  return JSON.stringify({ row, events, nodes, snapshot }, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

async function discussionRows(s: TestServices) {
  return { comments: await s.prisma.comment.count(), labels: await s.prisma.label.count() };
}

describe.each(BACKENDS)('discussion (%s)', (backend) => {
  it('keeps comments on a node and on the run, with author, step and time; a reply joins its thread', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const api = local(s);
    const { lastSeq } = await api.run.byId({ id: runId });
    const { id: first } = await api.comment.add({ runId, nodeId: 'n2', text: '  why this score?  ', step: 7 });
    const { id: reply } = await api.comment.add({ runId, text: 'the evaluator liked 13-9', replyTo: first });
    // a reply to a reply joins the thread of the first, on its node
    const { id: deeper } = await local(s, 'grace').comment.add({ runId, text: 'agreed', replyTo: reply, step: 10_000 });
    const { id: onRun } = await api.comment.add({ runId, text: 'a good run overall' });
    const comments = await api.comment.list({ runId });
    expect(comments.map((c) => [c.id, c.nodeId, c.replyTo, c.text, c.author.name, c.step])).toEqual([
      [first, 'n2', null, 'why this score?', 'ada', 7],
      [reply, 'n2', first, 'the evaluator liked 13-9', 'ada', lastSeq],
      [deeper, 'n2', first, 'agreed', 'grace', lastSeq],
      [onRun, null, null, 'a good run overall', 'ada', lastSeq],
    ]);
    expect(comments.every((c) => c.author.id === null && c.createdAt instanceof Date && c.editedAt === null)).toBe(
      true,
    );
  });

  it('edits a comment (marked edited), deletes one, and keeps a deleted first as long as its thread has replies', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const api = local(s);
    const { id: first } = await api.comment.add({ runId, nodeId: 'n1', text: 'first' });
    const { id: reply } = await api.comment.add({ runId, text: 'reply', replyTo: first });
    const { id: alone } = await api.comment.add({ runId, nodeId: 'n1', text: 'alone' });
    await api.comment.edit({ id: first, text: 'first, edited' });
    let comments = await api.comment.list({ runId });
    expect(comments.find((c) => c.id === first)).toMatchObject({ text: 'first, edited', deleted: false });
    expect(comments.find((c) => c.id === first)?.editedAt).toBeInstanceOf(Date);

    await api.comment.delete({ id: alone });
    await api.comment.delete({ id: first });
    comments = await api.comment.list({ runId });
    expect(comments.map((c) => [c.id, c.deleted, c.text])).toEqual([
      [first, true, ''],
      [reply, false, 'reply'],
    ]);
    // a deleted comment can be neither edited nor deleted again
    expect(await refusal(api.comment.edit({ id: first, text: 'back' }))).toBe(`NOT_FOUND no comment ${first}`);
    // the thread's last reply takes its deleted first with it
    await api.comment.delete({ id: reply });
    expect(await api.comment.list({ runId })).toEqual([]);
  });

  it("keeps every reply under a first that stays when replies race their thread's deletion", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const api = local(s);
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const { id } = await api.comment.add({ runId, nodeId: 'n1', text: `first ${round}` });
      const [reply, deletion] = await Promise.all([
        refusal(api.comment.add({ runId, text: `reply ${round}`, replyTo: id })),
        refusal(api.comment.delete({ id })),
      ]);
      expect(deletion).toBe('OK');
      outcomes.add(reply.startsWith('BAD_REQUEST') ? 'refused' : reply);
      expect([
        'OK',
        `BAD_REQUEST no comment ${id} in run ${runId}`,
        'BAD_REQUEST that thread was deleted: start a new one',
      ]).toContain(reply);
    }
    const comments = await api.comment.list({ runId });
    const ids = new Set(comments.map((c) => c.id));
    for (const comment of comments) if (comment.replyTo !== null) expect(ids.has(comment.replyTo)).toBe(true);
    // a deleted first stays exactly while a reply names it
    for (const comment of comments)
      if (comment.deleted) expect(comments.some((c) => c.replyTo === comment.id)).toBe(true);
    // and the database holds to it whatever a writer does
    const first = comments.find((c) => c.replyTo === null && comments.some((r) => r.replyTo === c.id));
    if (first) await expect(s.prisma.comment.delete({ where: { id: first.id } })).rejects.toThrow();
    await expect(
      s.prisma.comment.create({
        data: { id: 'orphan', runId, replyTo: 'nobody', text: 'x', authorName: 'x', step: 1 },
      }),
    ).rejects.toThrow();
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('refuses a reply to a deleted thread', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const api = local(s);
    const { id } = await api.comment.add({ runId, nodeId: 'n1', text: 'first' });
    const { id: reply } = await api.comment.add({ runId, text: 'reply', replyTo: id });
    await api.comment.delete({ id });
    expect(await refusal(api.comment.add({ runId, text: 'to a deleted thread', replyTo: reply }))).toBe(
      'BAD_REQUEST that thread was deleted: start a new one',
    );
  });

  it('puts labels from the set on nodes, with a note, changes the note, and takes them off', async () => {
    const s = await testServices.open(backend, { labels: ['good thought', 'evaluator wrong'] });
    const runId = await settledGame24Run(s);
    const api = local(s);
    expect(await api.label.choices()).toEqual([
      { name: 'good thought', key: '1' },
      { name: 'evaluator wrong', key: '2' },
    ]);
    await api.label.set({ runId, nodeId: 'n2', label: 'evaluator wrong', note: 'scored 0.9 for a dead end' });
    await api.label.set({ runId, nodeId: 'n2', label: 'good thought' });
    await api.label.set({ runId, nodeId: 'n2', label: 'evaluator wrong', note: 'scored 0.9, and 13-9 is wrong' });
    const labels = await api.label.list({ runId });
    expect(labels.map((l) => [l.nodeId, l.label, l.note, l.author.name])).toEqual([
      ['n2', 'evaluator wrong', 'scored 0.9, and 13-9 is wrong', 'ada'],
      ['n2', 'good thought', null, 'ada'],
    ]);
    await api.label.remove({ runId, nodeId: 'n2', label: 'good thought' });
    expect((await api.label.list({ runId })).map((l) => l.label)).toEqual(['evaluator wrong']);
    expect(await refusal(api.label.remove({ runId, nodeId: 'n2', label: 'good thought' }))).toBe(
      'NOT_FOUND no label "good thought" on node n2',
    );
  });

  it('refuses bad input with the field and the reason, writing nothing', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const otherRunId = await settledGame24Run(s);
    const api = local(s);
    const { id: elsewhere } = await api.comment.add({ runId: otherRunId, nodeId: 'n1', text: 'elsewhere' });
    const before = await discussionRows(s);
    expect(await refusal(api.comment.add({ runId, nodeId: 'n1', text: '' }))).toBe(
      'BAD_REQUEST text: a comment cannot be empty',
    );
    expect(await refusal(api.comment.add({ runId, nodeId: 'n1', text: ' \n\t ' }))).toBe(
      'BAD_REQUEST text: a comment cannot be empty',
    );
    expect(await refusal(api.comment.add({ runId, nodeId: 'n1', text: 'x'.repeat(10_001) }))).toBe(
      'BAD_REQUEST text: a comment has at most 10,000 characters',
    );
    // exactly the limit is fine (written, then taken back out of the count below)
    const { id: longest } = await api.comment.add({ runId, nodeId: 'n1', text: 'x'.repeat(10_000) });
    await api.comment.delete({ id: longest });
    expect(await refusal(api.comment.add({ runId, nodeId: 'n999', text: 'where?' }))).toBe(
      `BAD_REQUEST no node n999 in run ${runId}`,
    );
    expect(await refusal(api.comment.add({ runId, text: 'crossing runs', replyTo: elsewhere }))).toBe(
      `BAD_REQUEST no comment ${elsewhere} in run ${runId}`,
    );
    expect(await refusal(api.label.set({ runId, nodeId: 'n1', label: 'brilliant' }))).toBe(
      'BAD_REQUEST "brilliant" is not one of this server\'s labels: good thought, evaluator wrong, should have pruned, hallucinated move',
    );
    expect(await refusal(api.label.set({ runId, nodeId: 'n999', label: 'good thought' }))).toBe(
      `BAD_REQUEST no node n999 in run ${runId}`,
    );
    expect(await refusal(api.comment.edit({ id: elsewhere, text: '' }))).toBe(
      'BAD_REQUEST text: a comment cannot be empty',
    );
    await api.run.delete({ id: runId });
    expect(await refusal(api.comment.add({ runId, nodeId: 'n1', text: 'too late' }))).toBe(`NOT_FOUND no run ${runId}`);
    expect(await refusal(api.label.set({ runId, nodeId: 'n1', label: 'good thought' }))).toBe(
      `NOT_FOUND no run ${runId}`,
    );
    expect(await discussionRows(s)).toEqual(before);
  });

  it('the field of a refusal is named for the form (errorField)', async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    try {
      await local(s).comment.add({ runId, nodeId: 'n999', text: 'where?' });
      expect.unreachable();
    } catch (error) {
      expect((error as TRPCError & { cause: { field?: string } }).cause.field).toBe('nodeId');
    }
  });

  it("changes neither the run's log, nor its nodes, snapshot or fold", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const before = await storedRun(s, runId);
    const foldedBefore = JSON.stringify(fold(await listEvents(s.prisma, runId), createEmptyTree(runId)));
    const api = local(s);
    const { id } = await api.comment.add({ runId, nodeId: 'n2', text: 'a comment' });
    await api.comment.add({ runId, text: 'a reply', replyTo: id });
    await api.comment.edit({ id, text: 'edited' });
    await api.label.set({ runId, nodeId: 'n2', label: 'should have pruned', note: 'a dead end' });
    await api.comment.add({ runId, text: 'on the run' });
    expect(await storedRun(s, runId)).toBe(before);
    expect(JSON.stringify(fold(await listEvents(s.prisma, runId), createEmptyTree(runId)))).toBe(foldedBefore);
    // and they go with the run
    await api.run.delete({ id: runId });
    expect(await discussionRows(s)).toEqual({ comments: 0, labels: 0 });
  });

  it("tells a page on the run's stream of every change, after the log's end, until the page goes", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const controller = new AbortController();
    const items = streamRunItems({
      prisma: s.prisma,
      bus: s.bus,
      runId,
      afterSeq: 0,
      follow: true,
      signal: controller.signal,
      discussion: true,
    });
    const seen: string[] = [];
    let resolveSignal: () => void = () => {};
    let signalled = new Promise<void>((resolve) => (resolveSignal = resolve));
    const reading = (async () => {
      for await (const item of items) {
        seen.push(item.kind === 'events' ? `events ${item.events.at(-1)?.type}` : item.kind);
        if (item.kind === 'discussed') resolveSignal();
      }
    })();
    const api = local(s);
    const { id } = await api.comment.add({ runId, nodeId: 'n1', text: 'still listening?' });
    await signalled;
    signalled = new Promise<void>((resolve) => (resolveSignal = resolve));
    await api.label.set({ runId, nodeId: 'n1', label: 'good thought' });
    await signalled;
    signalled = new Promise<void>((resolve) => (resolveSignal = resolve));
    await api.comment.delete({ id });
    await signalled;
    controller.abort();
    await reading;
    expect(seen.at(0)).toBe('events run.finished');
    expect(seen.slice(1)).toEqual(['discussed', 'discussed', 'discussed']);
    expect(s.bus.subscriberCount(runId)).toBe(0);

    // without `discussion` the stream ends with the log, as before
    const plain: string[] = [];
    for await (const item of streamRunItems({ prisma: s.prisma, bus: s.bus, runId, afterSeq: 0, follow: true }))
      plain.push(item.kind);
    expect(plain).toEqual(['events']);
  });

  it("ends a discussion's stream when the run is deleted", async () => {
    const s = await testServices.open(backend);
    const runId = await settledGame24Run(s);
    const kinds: string[] = [];
    const reading = (async () => {
      const items = streamRunItems({
        prisma: s.prisma,
        bus: s.bus,
        runId,
        afterSeq: 0,
        follow: true,
        discussion: true,
      });
      for await (const item of items) kinds.push(item.kind);
    })();
    while (s.bus.subscriberCount(runId) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await local(s).run.delete({ id: runId });
    await reading;
    expect(kinds).toEqual(['events']);
  });
});

describe.each(BACKENDS)('discussion in team mode (%s)', (backend) => {
  async function team() {
    const s = await testServices.open(backend);
    const password = 'correct horse battery';
    const [admin, member, other, viewer] = await Promise.all(
      (['admin', 'member', 'member', 'viewer'] as const).map((role, i) =>
        createUser(s.prisma, { email: `${role}${i}@team.test`, role, password, name: `${role} ${i}` }),
      ),
    );
    const runId = await settledGame24Run(s);
    return {
      s,
      runId,
      admin: userPrincipal(admin!),
      member: userPrincipal(member!),
      other: userPrincipal(other!),
      viewer: userPrincipal(viewer!),
    };
  }

  it('members and admins write under their names; a teammate replies but edits or deletes only their own', async () => {
    const { s, runId, admin, member, other } = await team();
    const { id } = await as(s, member).comment.add({ runId, nodeId: 'n1', text: 'mine' });
    const { id: reply } = await as(s, other).comment.add({ runId, text: 'theirs', replyTo: id });
    expect((await as(s, admin).comment.list({ runId })).map((c) => [c.author, c.text])).toEqual([
      [{ id: member.kind === 'user' && member.id, name: 'member 1' }, 'mine'],
      [{ id: other.kind === 'user' && other.id, name: 'member 2' }, 'theirs'],
    ]);
    expect(await refusal(as(s, other).comment.edit({ id, text: 'not yours' }))).toBe(
      'FORBIDDEN only its author may edit a comment',
    );
    expect(await refusal(as(s, other).comment.delete({ id }))).toBe(
      'FORBIDDEN only its author or an admin may delete a comment',
    );
    expect(await refusal(as(s, admin).comment.edit({ id, text: 'an admin edits nobody' }))).toBe(
      'FORBIDDEN only its author may edit a comment',
    );
    await as(s, other).comment.edit({ id: reply, text: 'theirs, edited' });
    await as(s, admin).comment.delete({ id: reply });
    expect((await as(s, member).comment.list({ runId })).map((c) => c.text)).toEqual(['mine']);
  });

  it("a label is its setter's: another member's set answers CONFLICT, their remove FORBIDDEN; an admin removes it", async () => {
    const { s, runId, admin, member, other } = await team();
    await as(s, member).label.set({ runId, nodeId: 'n1', label: 'evaluator wrong' });
    expect(await refusal(as(s, other).label.set({ runId, nodeId: 'n1', label: 'evaluator wrong', note: 'x' }))).toBe(
      'CONFLICT "evaluator wrong" is already on n1, put there by member 1',
    );
    expect(await refusal(as(s, other).label.remove({ runId, nodeId: 'n1', label: 'evaluator wrong' }))).toBe(
      'FORBIDDEN only whoever put a label on a node, or an admin, may take it off',
    );
    await as(s, other).label.set({ runId, nodeId: 'n1', label: 'good thought' });
    await as(s, admin).label.remove({ runId, nodeId: 'n1', label: 'evaluator wrong' });
    expect((await as(s, member).label.list({ runId })).map((l) => [l.label, l.author.name])).toEqual([
      ['good thought', 'member 2'],
    ]);
  });

  it('viewers and share-link holders read the discussion and cannot write (403, nothing written)', async () => {
    const { s, runId, admin, member, viewer } = await team();
    const { id } = await as(s, member).comment.add({ runId, nodeId: 'n1', text: 'read me' });
    await as(s, member).label.set({ runId, nodeId: 'n1', label: 'good thought' });
    const link = await as(s, admin).shares.create({ runId });
    const holder = await principalFor(
      s.prisma,
      TEAM,
      new Headers({ cookie: `arborist_share=${link.path.replace('/share/', '')}` }),
    );
    expect(holder.kind).toBe('share');
    const before = await discussionRows(s);
    for (const who of [viewer, holder]) {
      const api = as(s, who);
      expect((await api.comment.list({ runId })).map((c) => c.text)).toEqual(['read me']);
      expect((await api.label.list({ runId })).map((l) => l.label)).toEqual(['good thought']);
      const refused = who.kind === 'share' ? 'a share link is read only' : 'viewers have read-only access';
      expect(await refusal(api.comment.add({ runId, nodeId: 'n1', text: 'me too' }))).toContain(`FORBIDDEN ${refused}`);
      expect(await refusal(api.comment.add({ runId, text: 'a reply', replyTo: id }))).toContain('FORBIDDEN');
      expect(await refusal(api.comment.edit({ id, text: 'x' }))).toContain('FORBIDDEN');
      expect(await refusal(api.comment.delete({ id }))).toContain('FORBIDDEN');
      expect(await refusal(api.label.set({ runId, nodeId: 'n1', label: 'evaluator wrong' }))).toContain('FORBIDDEN');
      expect(await refusal(api.label.remove({ runId, nodeId: 'n1', label: 'good thought' }))).toContain('FORBIDDEN');
    }
    // a share link of another run reads nothing of this one
    expect(await refusal(as(s, { kind: 'anonymous' }).comment.list({ runId }))).toBe('UNAUTHORIZED sign in first');
    expect(await discussionRows(s)).toEqual(before);
  });
});

describe('discussion in a cluster', () => {
  it('a comment written through instance A reaches a page following the run on instance B', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const b = await db.start('B');
    const run = await a.manager.create({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 0 },
    });
    for (;;) {
      const row = await b.prisma.run.findUnique({ where: { id: run.id } });
      if (row?.status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const controller = new AbortController();
    const kinds: string[] = [];
    const reading = (async () => {
      const items = streamRunItems({
        prisma: b.prisma,
        bus: b.bus,
        runId: run.id,
        afterSeq: 0,
        follow: true,
        signal: controller.signal,
        discussion: true,
      });
      for await (const item of items) {
        kinds.push(item.kind);
        if (item.kind === 'discussed') controller.abort();
      }
    })();
    while (b.bus.subscriberCount(run.id) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await createCaller(testContext(a, { actor: 'ada' })).comment.add({ runId: run.id, nodeId: 'n1', text: 'from A' });
    await reading;
    expect(kinds.at(-1)).toBe('discussed');
  });
});
