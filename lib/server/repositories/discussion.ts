/**
 * A run's discussion in the database: comments (threads by reply, a deleted comment with replies kept as a tombstone)
 * and labels (one of each label per node). Beside the run, never in its log: nothing here touches events, nodes or the
 * snapshot. Checks what only the database can (the node exists in the run, the replied comment is the run's) and
 * refuses with the field and the reason; the shape of the input is the contract's (lib/contract/discussion.ts).
 * Also the discussion's copies: into an export file, from one (an import, inside its staged write), and onto a fork's
 * copy of the path.
 * Not responsible for who may write (the routers ask lib/contract/access.ts) nor for telling the open pages (the
 * router announces each change on the run's stream).
 */
import { randomUUID } from 'node:crypto';
import type { DiscussionAuthor, ExportedDiscussion, NodeLabel, RunComment } from '../../contract/discussion';
import type { Db } from '../db/client';
import { InputError, NotFoundError } from '../core/errors';
import { type Comment as CommentRow, type Label as LabelRow, Prisma } from '../../generated/prisma/client';

function toComment(row: CommentRow): RunComment {
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    replyTo: row.replyTo,
    text: row.deleted ? '' : row.text,
    deleted: row.deleted,
    author: { id: row.authorId, name: row.authorName },
    step: row.step,
    createdAt: row.createdAt,
    editedAt: row.editedAt,
  };
}

function toLabel(row: LabelRow): NodeLabel {
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    label: row.label,
    note: row.note,
    author: { id: row.authorId, name: row.authorName },
    step: row.step,
    createdAt: row.createdAt,
  };
}

/** The run's comments, oldest first, a reply never before its thread's first (threadOrder). */
export async function listComments(db: Db, runId: string): Promise<RunComment[]> {
  const rows = await db.comment.findMany({ where: { runId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return threadOrder(rows).map(toComment);
}

/** The run's labels, oldest first. */
export async function listLabels(db: Db, runId: string): Promise<NodeLabel[]> {
  const rows = await db.label.findMany({ where: { runId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toLabel);
}

export async function getComment(db: Db, id: string): Promise<RunComment | null> {
  const row = await db.comment.findUnique({ where: { id } });
  return row ? toComment(row) : null;
}

/** Throws an InputError on `field` unless the run has the node. */
async function checkNode(db: Db, runId: string, nodeId: string, field: string): Promise<void> {
  const node = await db.node.findUnique({ where: { runId_nodeId: { runId, nodeId } }, select: { nodeId: true } });
  if (!node) throw new InputError(field, `no node ${nodeId} in run ${runId}`);
}

/** The step a write is recorded at: the one the person was looking at, within the run's log; else its last. */
export function stepWithin(step: number | null | undefined, lastSeq: number): number {
  return step === null || step === undefined ? lastSeq : Math.min(Math.max(step, 0), lastSeq);
}

export interface NewComment {
  runId: string;
  nodeId: string | null;
  text: string;
  replyTo: string | null;
  step: number;
  author: DiscussionAuthor;
}

/**
 * Stores a comment. A reply joins the thread of the comment it answers (its first, whichever comment of the thread
 * was answered) and takes that thread's node.
 */
export async function addComment(db: Db, input: NewComment): Promise<RunComment> {
  let nodeId = input.nodeId;
  let replyTo: string | null = null;
  const gone = () => new InputError('replyTo', `no comment ${input.replyTo} in run ${input.runId}`);
  if (input.replyTo) {
    const answered = await db.comment.findUnique({ where: { id: input.replyTo } });
    if (!answered || answered.runId !== input.runId) throw gone();
    replyTo = answered.replyTo ?? answered.id;
    const first = replyTo === answered.id ? answered : await db.comment.findUnique({ where: { id: replyTo } });
    if (!first || first.deleted) throw new InputError('replyTo', 'that thread was deleted: start a new one');
    nodeId = answered.nodeId;
  } else if (nodeId !== null) {
    await checkNode(db, input.runId, nodeId, 'nodeId');
  }
  try {
    const row = await db.comment.create({
      data: {
        id: randomUUID(),
        runId: input.runId,
        nodeId,
        replyTo,
        text: input.text,
        authorId: input.author.id,
        authorName: input.author.name,
        step: input.step,
      },
    });
    return toComment(row);
  } catch (error) {
    // the thread's first was deleted since it was read: the foreign key refuses a reply that would name nothing
    if (isForeignKeyViolation(error)) throw gone();
    throw error;
  }
}

/** Prisma's answer when a foreign key refuses a write (P2003). */
function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003';
}

/** Deletes a thread's first unless a reply names it (then false: a reply came in meanwhile, the foreign key says). */
async function deleteFirstIfAlone(db: Db, id: string): Promise<boolean> {
  if ((await db.comment.count({ where: { replyTo: id } })) > 0) return false;
  try {
    await db.comment.delete({ where: { id } });
    return true;
  } catch (error) {
    if (isForeignKeyViolation(error)) return false;
    throw error;
  }
}

export async function editComment(db: Db, id: string, text: string, now = new Date()): Promise<RunComment> {
  const row = await db.comment.findUnique({ where: { id } });
  if (!row || row.deleted) throw new NotFoundError(`no comment ${id}`);
  return toComment(await db.comment.update({ where: { id }, data: { text, editedAt: now } }));
}

/**
 * Deletes a comment. A thread's first that has replies stays as a tombstone (text gone, `deleted`), so the replies
 * still read as a thread; a tombstone goes with its last reply.
 */
export async function deleteComment(db: Db, id: string): Promise<void> {
  const row = await db.comment.findUnique({ where: { id } });
  if (!row || row.deleted) throw new NotFoundError(`no comment ${id}`);
  if (row.replyTo === null) {
    if (!(await deleteFirstIfAlone(db, id)))
      await db.comment.update({ where: { id }, data: { deleted: true, text: '' } });
    return;
  }
  await db.comment.delete({ where: { id } });
  const first = await db.comment.findUnique({ where: { id: row.replyTo } });
  if (first?.deleted) await deleteFirstIfAlone(db, first.id);
}

export interface NewLabel {
  runId: string;
  nodeId: string;
  label: string;
  note: string | null;
  step: number;
  author: DiscussionAuthor;
}

/** Puts a label on a node; the same label again changes its note (and who set it last). */
export async function setLabel(db: Db, input: NewLabel): Promise<NodeLabel> {
  await checkNode(db, input.runId, input.nodeId, 'nodeId');
  const fields = {
    note: input.note,
    authorId: input.author.id,
    authorName: input.author.name,
    step: input.step,
  };
  const row = await db.label.upsert({
    where: { runId_nodeId_label: { runId: input.runId, nodeId: input.nodeId, label: input.label } },
    create: { id: randomUUID(), runId: input.runId, nodeId: input.nodeId, label: input.label, ...fields },
    update: fields,
  });
  return toLabel(row);
}

export async function getLabel(db: Db, runId: string, nodeId: string, label: string): Promise<NodeLabel | null> {
  const row = await db.label.findUnique({ where: { runId_nodeId_label: { runId, nodeId, label } } });
  return row ? toLabel(row) : null;
}

export async function removeLabel(db: Db, runId: string, nodeId: string, label: string): Promise<void> {
  const { count } = await db.label.deleteMany({ where: { runId, nodeId, label } });
  if (count === 0) throw new NotFoundError(`no label "${label}" on node ${nodeId}`);
}

/**
 * Comments oldest first, but a reply never before its thread's first, as an export file must list them: a reply may
 * carry the same millisecond as its first (then read by id, in any order), or an earlier time an imported file gave it.
 */
function threadOrder<C extends { id: string; replyTo: string | null }>(comments: readonly C[]): C[] {
  const firsts = new Set<string>();
  const waiting = new Map<string, C[]>();
  const ordered: C[] = [];
  for (const comment of comments) {
    if (comment.replyTo !== null && !firsts.has(comment.replyTo)) {
      const replies = waiting.get(comment.replyTo) ?? [];
      waiting.set(comment.replyTo, replies);
      replies.push(comment);
      continue;
    }
    ordered.push(comment);
    if (comment.replyTo === null) {
      firsts.add(comment.id);
      ordered.push(...(waiting.get(comment.id) ?? []));
      waiting.delete(comment.id);
    }
  }
  // a reply whose first is gone (deleteComment never leaves one) goes last, where an import's check names it
  for (const replies of waiting.values()) ordered.push(...replies);
  return ordered;
}

/** The discussion as an export file holds it (authors by name, times as ISO text); null when there is none. */
export async function exportDiscussion(db: Db, runId: string): Promise<ExportedDiscussion | null> {
  const [comments, labels] = await Promise.all([listComments(db, runId), listLabels(db, runId)]);
  if (comments.length === 0 && labels.length === 0) return null;
  return {
    comments: comments.map((comment) => ({
      id: comment.id,
      nodeId: comment.nodeId,
      replyTo: comment.replyTo,
      text: comment.text,
      deleted: comment.deleted,
      author: { name: comment.author.name },
      step: comment.step,
      createdAt: comment.createdAt.toISOString(),
      editedAt: comment.editedAt?.toISOString() ?? null,
    })),
    labels: labels.map((label) => ({
      nodeId: label.nodeId,
      label: label.label,
      note: label.note,
      author: { name: label.author.name },
      step: label.step,
      createdAt: label.createdAt.toISOString(),
    })),
  };
}

/**
 * Writes a file's discussion onto a run (an import's staged run, inside its transaction): new comment ids, replies
 * following their thread's first, authors by name only. The file was checked against the run's log before
 * (lib/contract/discussion.ts discussionProblem).
 */
export async function writeDiscussion(db: Db, runId: string, discussion: ExportedDiscussion): Promise<void> {
  const ids = new Map<string, string>();
  for (const comment of discussion.comments) ids.set(comment.id, randomUUID());
  if (discussion.comments.length > 0)
    await db.comment.createMany({
      data: discussion.comments.map((comment) => ({
        id: ids.get(comment.id) as string,
        runId,
        nodeId: comment.nodeId,
        replyTo: comment.replyTo === null ? null : (ids.get(comment.replyTo) ?? null),
        text: comment.deleted ? '' : comment.text,
        deleted: comment.deleted,
        authorId: null,
        authorName: comment.author.name,
        step: comment.step,
        createdAt: new Date(comment.createdAt),
        editedAt: comment.editedAt === null ? null : new Date(comment.editedAt),
      })),
    });
  if (discussion.labels.length > 0)
    await db.label.createMany({
      data: discussion.labels.map((label) => ({
        id: randomUUID(),
        runId,
        nodeId: label.nodeId,
        label: label.label,
        note: label.note,
        authorId: null,
        authorName: label.author.name,
        step: label.step,
        createdAt: new Date(label.createdAt),
      })),
    });
}

/**
 * Copies the discussion of the nodes a fork copied onto the fork's own copies (`nodes`: source node id -> the fork's
 * node id and the step its copy was made at): threads whole, labels as they are, authors kept. Comments on the run as
 * a whole and on nodes the fork did not copy stay with the source. How many comments and labels were copied.
 */
export async function copyDiscussion(
  db: Db,
  sourceRunId: string,
  forkRunId: string,
  nodes: ReadonlyMap<string, { nodeId: string; step: number }>,
): Promise<{ comments: number; labels: number }> {
  const sourceIds = [...nodes.keys()];
  const [comments, labels] = await Promise.all([
    db.comment.findMany({
      where: { runId: sourceRunId, nodeId: { in: sourceIds } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    db.label.findMany({ where: { runId: sourceRunId, nodeId: { in: sourceIds } } }),
  ]);
  const ids = new Map(comments.map((comment) => [comment.id, randomUUID()]));
  // firsts before their replies, whatever the clocks said: the foreign key wants a reply's first in place
  const copy = (nodeId: string) => nodes.get(nodeId) as { nodeId: string; step: number };
  if (comments.length > 0)
    await db.comment.createMany({
      data: threadOrder(comments).map((comment) => ({
        ...comment,
        id: ids.get(comment.id) as string,
        runId: forkRunId,
        nodeId: copy(comment.nodeId as string).nodeId,
        replyTo: comment.replyTo === null ? null : (ids.get(comment.replyTo) ?? null),
        step: copy(comment.nodeId as string).step,
      })),
    });
  if (labels.length > 0)
    await db.label.createMany({
      data: labels.map((label) => ({
        ...label,
        id: randomUUID(),
        runId: forkRunId,
        nodeId: copy(label.nodeId).nodeId,
        step: copy(label.nodeId).step,
      })),
    });
  return { comments: comments.length, labels: labels.length };
}

/** Runs' comment and label counts (the runs list's badge), by run id. */
export async function discussionCounts(
  db: Db,
  runIds: readonly string[],
): Promise<Map<string, { comments: number; labels: number }>> {
  const counts = new Map<string, { comments: number; labels: number }>();
  if (runIds.length === 0) return counts;
  const [comments, labels] = await Promise.all([
    db.comment.groupBy({
      by: ['runId'],
      where: { runId: { in: [...runIds] }, deleted: false },
      _count: { _all: true },
    }),
    db.label.groupBy({ by: ['runId'], where: { runId: { in: [...runIds] } }, _count: { _all: true } }),
  ]);
  const entry = (runId: string) => {
    let counted = counts.get(runId);
    if (!counted) counts.set(runId, (counted = { comments: 0, labels: 0 }));
    return counted;
  };
  for (const row of comments) entry(row.runId).comments = row._count._all;
  for (const row of labels) entry(row.runId).labels = row._count._all;
  return counts;
}
