/**
 * What the run page shows of a run's discussion, as pure functions over the store's DiscussionIndex (discussion.ts):
 * one node's threads (the inspector), the run's threads and labels in time order with their filters (the Discussion
 * tab), the tally of each label, the timeline's markers, what a label key or click does (put, take off, or refused:
 * another person's label), when a comment was written in words, and the link to a comment.
 * Pure. Not responsible for fetching or writing (components/run/discussion) nor for the rules (lib/contract/access.ts).
 */
import { canChangeWriting, type Principal } from '../contract/access';
import type { LabelChoice, NodeLabel, RunComment } from '../contract/discussion';
import type { CommentThread, DiscussionIndex, DiscussionMark } from './discussion';

/** A node's threads that still read (isLiveThread), oldest first; `null`: the run's own (comments on no node). */
export function threadsOf(index: DiscussionIndex, nodeId: string | null): CommentThread[] {
  return index.threads.filter((t) => t.first.nodeId === nodeId && isLiveThread(t));
}

/** A thread a person still reads: its first is live, or a reply is (a deleted first with replies stays a stub). */
export function isLiveThread(thread: CommentThread): boolean {
  return !thread.first.deleted || thread.replies.some((r) => !r.deleted);
}

/** The comment a reply answers: a reply to a reply joins its thread (one level), so always the thread's first. */
export function replyTarget(comment: RunComment): string {
  return comment.replyTo ?? comment.id;
}

/** Live comments and labels: the count on the Discussion tab. */
export function discussionCount(index: DiscussionIndex): number {
  let comments = 0;
  for (const comment of index.comments) if (!comment.deleted) comments++;
  return comments + index.labels.length;
}

export type DiscussionEntry =
  { kind: 'thread'; thread: CommentThread; at: number } | { kind: 'label'; label: NodeLabel; at: number };

export interface EntryFilter {
  /** Comments, labels, or both. */
  show: 'all' | 'comments' | 'labels';
  /** Only this label (and no comments); null: any. */
  label: string | null;
}

export const ALL_ENTRIES: EntryFilter = { show: 'all', label: null };

/**
 * The Discussion tab's list: every live thread (at the time of its latest comment, so a new reply brings its thread
 * down to the newest) and every label, oldest first, as the filter keeps them.
 */
export function discussionEntries(index: DiscussionIndex, filter: EntryFilter = ALL_ENTRIES): DiscussionEntry[] {
  const entries: DiscussionEntry[] = [];
  const comments = filter.show !== 'labels' && filter.label === null;
  const labels = filter.show !== 'comments';
  if (comments)
    for (const thread of index.threads) {
      if (!isLiveThread(thread)) continue;
      let at = thread.first.createdAt.getTime();
      for (const reply of thread.replies) at = Math.max(at, reply.createdAt.getTime());
      entries.push({ kind: 'thread', thread, at });
    }
  if (labels)
    for (const label of index.labels) {
      if (filter.label !== null && label.label !== filter.label) continue;
      entries.push({ kind: 'label', label, at: label.createdAt.getTime() });
    }
  // stable: threads before labels written in the same millisecond, each in the server's order
  return entries.sort((a, b) => a.at - b.at);
}

export interface LabelCount {
  name: string;
  /** The key that puts it on a node; null: a label outside this server's set (an imported run's). */
  key: string | null;
  count: number;
}

/** How many nodes carry each label: the server's set in its order (zeros too), then any other label found. */
export function labelTally(labels: readonly NodeLabel[], choices: readonly LabelChoice[]): LabelCount[] {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label.label, (counts.get(label.label) ?? 0) + 1);
  const tally: LabelCount[] = choices.map((c) => ({ name: c.name, key: c.key, count: counts.get(c.name) ?? 0 }));
  for (const [name, count] of counts) if (!choices.some((c) => c.name === name)) tally.push({ name, key: null, count });
  return tally;
}

/** "2 comments · 1 label", "1 comment", "" for nothing (a badge's title, the inspector's section, a tooltip). */
export function discussionWords(comments: number, labels: number): string {
  const parts: string[] = [];
  if (comments > 0) parts.push(`${comments} comment${comments === 1 ? '' : 's'}`);
  if (labels > 0) parts.push(`${labels} label${labels === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

/** The labels on one node, by name. */
export function labelsOn(index: DiscussionIndex, nodeId: string): Map<string, NodeLabel> {
  const on = new Map<string, NodeLabel>();
  if (!index.byNode.has(nodeId)) return on;
  for (const label of index.labels) if (label.nodeId === nodeId) on.set(label.label, label);
  return on;
}

/**
 * What a click on a label's chip (or its key) does on a node: take it off when it is there and the person may (its
 * setter, or an admin), else put it on. Put on over another person's label, the server refuses (CONFLICT, naming
 * who put it there) and the page shows its words: the server, not a stale page, has the last say.
 */
export function labelToggle(who: Principal | null, existing: NodeLabel | undefined): 'set' | 'remove' {
  return existing && who !== null && canChangeWriting(who, existing, 'delete') ? 'remove' : 'set';
}

/** A marker on the timeline: the discussion written at nearby steps, sharing one place. */
export interface DiscussionMarker {
  first: DiscussionMark;
  comments: number;
  labels: number;
  /** Where along the track, 0..1. */
  at: number;
}

/**
 * The timeline's markers for the discussion's marks along a log of `total` events: marks closer than one of `slots`
 * places share a marker, so a long discussion draws at most `slots`. Marks must be in step order (the index's are).
 */
export function discussionMarkers(marks: readonly DiscussionMark[], total: number, slots: number): DiscussionMarker[] {
  const out: DiscussionMarker[] = [];
  let slot = -1;
  for (const mark of marks) {
    const at = total <= 1 ? 0 : Math.min(1, Math.max(0, (mark.step - 1) / (total - 1)));
    const s = Math.round(at * slots);
    let last = out[out.length - 1];
    if (s !== slot || !last) {
      last = { first: mark, comments: 0, labels: 0, at: s / slots };
      out.push(last);
    }
    if (mark.kind === 'comment') last.comments++;
    else last.labels++;
    slot = s;
  }
  return out;
}

/** "2 comments, 1 label at step 40" (a marker's title). */
export function describeMarker(marker: DiscussionMarker): string {
  const parts: string[] = [];
  if (marker.comments > 0) parts.push(`${marker.comments} comment${marker.comments === 1 ? '' : 's'}`);
  if (marker.labels > 0) parts.push(`${marker.labels} label${marker.labels === 1 ? '' : 's'}`);
  const where = marker.first.nodeId === null ? 'on the run' : `on ${marker.first.nodeId}`;
  return `${parts.join(', ')} written at step ${marker.first.step} (the first ${where})`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * When something was written, short, in the viewer's time zone: "just now", "5 min ago", "14:03" today,
 * "yesterday 14:03", "3 Dec 14:03" this year, "3 Dec 2025" before.
 */
export function writtenWhen(at: Date, now: Date): string {
  const ms = now.getTime() - at.getTime();
  if (ms < 60_000 && ms > -60_000) return 'just now';
  if (ms > 0 && ms < 60 * 60_000) return `${Math.floor(ms / 60_000)} min ago`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(at)) / 86_400_000);
  if (days === 0) return clock;
  if (days === 1) return `yesterday ${clock}`;
  const date = `${at.getDate()} ${MONTHS[at.getMonth()]}`;
  return at.getFullYear() === now.getFullYear() ? `${date} ${clock}` : `${date} ${at.getFullYear()}`;
}

/** The address that opens the run at a comment (its node and step, the comment highlighted). */
export function commentLink(origin: string, runId: string, commentId: string): string {
  return `${origin}/runs/${encodeURIComponent(runId)}?comment=${encodeURIComponent(commentId)}`;
}
