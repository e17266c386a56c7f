/**
 * A run's discussion: comments (on a node or on the run, threads by reply) and labels (a team's judgement of a node,
 * from a small set the operator chooses). What people say about a search, not part of it: stored beside the run, never
 * in its log, so a comment changes no fold, fingerprint or replay.
 * The inputs the API validates, the rows it returns, the export file's section and the default label set, defined
 * once for the server, the browser and export files.
 * Browser-safe, imports only zod. Not responsible for who may write (access.ts), storing (lib/server/repositories/
 * discussion.ts) nor the page (components/run/discussion).
 */
import { z } from 'zod';

/** The longest comment, in characters. */
export const MAX_COMMENT_CHARS = 10_000;
/** The longest note a label carries, in characters. */
export const MAX_LABEL_NOTE_CHARS = 500;
/** The longest label name, in characters. */
export const MAX_LABEL_CHARS = 40;
/** The most labels a set may hold: each gets a key, 1 to 9. */
export const MAX_LABELS = 9;

/** What a team counts when nobody configured ARBORIST_LABELS. */
export const DEFAULT_LABELS = ['good thought', 'evaluator wrong', 'should have pruned', 'hallucinated move'] as const;

const id = z.string().min(1).max(100);

/** A comment's text: trimmed, something, at most MAX_COMMENT_CHARS. */
export const commentTextSchema = z
  .string()
  .trim()
  .min(1, { error: 'a comment cannot be empty' })
  .max(MAX_COMMENT_CHARS, { error: `a comment has at most ${MAX_COMMENT_CHARS.toLocaleString('en-US')} characters` });

export const labelNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'a label needs a name' })
  .max(MAX_LABEL_CHARS, { error: `a label has at most ${MAX_LABEL_CHARS} characters` });

const labelNoteSchema = z
  .string()
  .trim()
  .max(MAX_LABEL_NOTE_CHARS, { error: `a label's note has at most ${MAX_LABEL_NOTE_CHARS} characters` });

/** The step a person was looking at when they wrote (the page's seq); the run's last step when not given. */
const stepSchema = z.number().int().min(0);

export const addCommentInput = z.strictObject({
  runId: id,
  /** The node it is about; none for a comment on the whole run. A reply takes its thread's node. */
  nodeId: id.nullish(),
  text: commentTextSchema,
  /** The comment it answers: a reply joins that comment's thread. */
  replyTo: id.nullish(),
  step: stepSchema.nullish(),
});
export const editCommentInput = z.strictObject({ id, text: commentTextSchema });
export const deleteCommentInput = z.strictObject({ id });
export const runDiscussionInput = z.strictObject({ runId: id });
export const setLabelInput = z.strictObject({
  runId: id,
  nodeId: id,
  label: labelNameSchema,
  note: labelNoteSchema.nullish(),
  step: stepSchema.nullish(),
});
export const removeLabelInput = z.strictObject({ runId: id, nodeId: id, label: labelNameSchema });

export interface DiscussionAuthor {
  /** The user's id in team mode; null for the local person (and for comments imported from another server). */
  id: string | null;
  /** What the page shows: the user's name or email; in local mode the name the page sends. */
  name: string;
}

export interface RunComment {
  id: string;
  runId: string;
  /** Null: on the run as a whole. */
  nodeId: string | null;
  /** The first comment of its thread (null for a thread's first). */
  replyTo: string | null;
  /** Empty once deleted (a deleted comment with replies stays, so its thread still reads). */
  text: string;
  deleted: boolean;
  author: DiscussionAuthor;
  /** The step (seq) of the run the author was looking at. */
  step: number;
  createdAt: Date;
  editedAt: Date | null;
}

export interface NodeLabel {
  id: string;
  runId: string;
  nodeId: string;
  label: string;
  note: string | null;
  author: DiscussionAuthor;
  step: number;
  createdAt: Date;
}

/** The operator's label set, each with the key that puts it on the selected node (1 to 9). */
export interface LabelChoice {
  name: string;
  key: string;
}

export function labelChoices(names: readonly string[]): LabelChoice[] {
  return names.map((name, i) => ({ name, key: String(i + 1) }));
}

/** ARBORIST_LABELS: comma-separated names, each 1..40 characters, unique, at most 9. */
export const labelSetSchema = z
  .array(labelNameSchema)
  .min(1, { error: 'name at least one label' })
  .max(MAX_LABELS, { error: `at most ${MAX_LABELS} labels (each gets a key, 1 to 9)` })
  .refine((names) => new Set(names).size === names.length, { error: 'the labels must differ' });

const isoTime = z.iso.datetime({ offset: true });
const exportedAuthor = z.strictObject({ name: z.string().min(1).max(200) });

/**
 * The discussion as an export file holds it: ids are the file's own (a reply names its thread's first by that id),
 * authors by name only (user ids mean nothing on another server), nodes by the run's node ids.
 */
export const exportedDiscussionSchema = z.strictObject({
  comments: z
    .array(
      z.strictObject({
        id,
        nodeId: id.nullable(),
        replyTo: id.nullable(),
        text: z.string().max(MAX_COMMENT_CHARS),
        deleted: z.boolean(),
        author: exportedAuthor,
        step: stepSchema,
        createdAt: isoTime,
        editedAt: isoTime.nullable(),
      }),
    )
    .max(100_000),
  labels: z
    .array(
      z.strictObject({
        nodeId: id,
        label: labelNameSchema,
        note: z.string().max(MAX_LABEL_NOTE_CHARS).nullable(),
        author: exportedAuthor,
        step: stepSchema,
        createdAt: isoTime,
      }),
    )
    .max(100_000),
});
export type ExportedDiscussion = z.infer<typeof exportedDiscussionSchema>;

/**
 * The first problem of a file's discussion against its run (a step past its log, a node the log never made, a reply
 * to a comment that is not a thread's first or comes later, an id twice), or null. Labels outside this server's set are kept: they were
 * the other team's judgement.
 */
export function discussionProblem(
  discussion: ExportedDiscussion,
  hasNode: (nodeId: string) => boolean,
  lastSeq: number,
): { path: (string | number)[]; message: string } | null {
  const firsts = new Set<string>();
  const seen = new Set<string>();
  const beyond = (step: number) => `step ${step} is past the log's last (${lastSeq})`;
  for (const [i, comment] of discussion.comments.entries()) {
    if (comment.step > lastSeq) return { path: ['comments', i, 'step'], message: beyond(comment.step) };
    if (seen.has(comment.id)) return { path: ['comments', i, 'id'], message: `comment id ${comment.id} twice` };
    seen.add(comment.id);
    if (comment.nodeId !== null && !hasNode(comment.nodeId))
      return { path: ['comments', i, 'nodeId'], message: `no node ${comment.nodeId} in the run's log` };
    if (comment.replyTo === null) firsts.add(comment.id);
    else if (!firsts.has(comment.replyTo))
      return {
        path: ['comments', i, 'replyTo'],
        message: `${comment.replyTo} is not the first comment of a thread listed before this one`,
      };
  }
  const labelled = new Set<string>();
  for (const [i, label] of discussion.labels.entries()) {
    if (label.step > lastSeq) return { path: ['labels', i, 'step'], message: beyond(label.step) };
    if (!hasNode(label.nodeId))
      return { path: ['labels', i, 'nodeId'], message: `no node ${label.nodeId} in the run's log` };
    const key = `${label.nodeId}\u0000${label.label}`;
    if (labelled.has(key))
      return { path: ['labels', i, 'label'], message: `"${label.label}" twice on node ${label.nodeId}` };
    labelled.add(key);
  }
  return null;
}
