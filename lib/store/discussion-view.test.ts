import { describe, expect, it } from 'vitest';
import type { Principal } from '../contract/access';
import { labelChoices, type NodeLabel, type RunComment } from '../contract/discussion';
import { indexDiscussion } from './discussion';
import {
  commentLink,
  describeMarker,
  discussionCount,
  discussionEntries,
  discussionMarkers,
  discussionWords,
  labelsOn,
  labelTally,
  labelToggle,
  replyTarget,
  threadsOf,
  writtenWhen,
} from './discussion-view';

const T0 = new Date(2026, 11, 7, 14, 0, 0).getTime();

function comment(id: string, over: Partial<RunComment> = {}): RunComment {
  return {
    id,
    runId: 'r1',
    nodeId: 'n1',
    replyTo: null,
    text: `text of ${id}`,
    deleted: false,
    author: { id: 'u1', name: 'Ada' },
    step: 10,
    createdAt: new Date(T0),
    editedAt: null,
    ...over,
  };
}

function label(id: string, over: Partial<NodeLabel> = {}): NodeLabel {
  return {
    id,
    runId: 'r1',
    nodeId: 'n1',
    label: 'good thought',
    note: null,
    author: { id: 'u1', name: 'Ada' },
    step: 10,
    createdAt: new Date(T0),
    ...over,
  };
}

const minutes = (n: number) => new Date(T0 + n * 60_000);

describe('threadsOf', () => {
  it("gives a node's threads with their replies, and the run's own for null", () => {
    const index = indexDiscussion(
      [
        comment('c1'),
        comment('c2', { nodeId: null }),
        comment('c3', { replyTo: 'c1', createdAt: minutes(1) }),
        comment('c4', { nodeId: 'n2' }),
      ],
      [],
    );
    expect(threadsOf(index, 'n1').map((t) => [t.first.id, t.replies.map((r) => r.id)])).toEqual([['c1', ['c3']]]);
    expect(threadsOf(index, null).map((t) => t.first.id)).toEqual(['c2']);
    expect(threadsOf(index, 'n9')).toEqual([]);
  });

  it('leaves out a deleted first whose replies are gone too', () => {
    const index = indexDiscussion([comment('c1', { deleted: true, text: '' })], []);
    expect(threadsOf(index, 'n1')).toEqual([]);
  });
});

describe('replyTarget', () => {
  it("answers a thread's first, whichever of its comments was answered (one level)", () => {
    expect(replyTarget(comment('c1'))).toBe('c1');
    expect(replyTarget(comment('c3', { replyTo: 'c1' }))).toBe('c1');
  });
});

describe('discussionCount', () => {
  it('counts live comments and labels, not deleted comments', () => {
    const index = indexDiscussion(
      [comment('c1', { deleted: true, text: '' }), comment('c2', { replyTo: 'c1' }), comment('c3')],
      [label('l1'), label('l2', { label: 'evaluator wrong' })],
    );
    expect(discussionCount(index)).toBe(4);
  });
});

describe('discussionEntries', () => {
  const index = indexDiscussion(
    [
      comment('c1', { createdAt: minutes(0) }),
      comment('c2', { createdAt: minutes(2), nodeId: null }),
      // a reply brings its thread down to its own time
      comment('c3', { replyTo: 'c1', createdAt: minutes(5) }),
      // a deleted first without live replies reads as nothing
      comment('c4', { createdAt: minutes(3), deleted: true, text: '' }),
    ],
    [
      label('l1', { createdAt: minutes(1) }),
      label('l2', { createdAt: minutes(4), label: 'evaluator wrong', nodeId: 'n2' }),
    ],
  );
  const ids = (entries: ReturnType<typeof discussionEntries>) =>
    entries.map((e) => (e.kind === 'thread' ? e.thread.first.id : e.label.id));

  it('lists live threads (at their latest comment) and labels, oldest first', () => {
    expect(ids(discussionEntries(index))).toEqual(['l1', 'c2', 'l2', 'c1']);
  });

  it('keeps only comments, only labels, or one label', () => {
    expect(ids(discussionEntries(index, { show: 'comments', label: null }))).toEqual(['c2', 'c1']);
    expect(ids(discussionEntries(index, { show: 'labels', label: null }))).toEqual(['l1', 'l2']);
    expect(ids(discussionEntries(index, { show: 'all', label: 'evaluator wrong' }))).toEqual(['l2']);
  });
});

describe('labelTally', () => {
  it("counts each label of the server's set in its order, zeros too, then labels from elsewhere", () => {
    const choices = labelChoices(['good thought', 'evaluator wrong']);
    const tally = labelTally(
      [label('l1'), label('l2', { nodeId: 'n2' }), label('l3', { label: 'their own label' })],
      choices,
    );
    expect(tally).toEqual([
      { name: 'good thought', key: '1', count: 2 },
      { name: 'evaluator wrong', key: '2', count: 0 },
      { name: 'their own label', key: null, count: 1 },
    ]);
  });
});

describe('discussionWords', () => {
  it('says the counts in words, leaving out what is zero', () => {
    expect(discussionWords(2, 1)).toBe('2 comments · 1 label');
    expect(discussionWords(1, 0)).toBe('1 comment');
    expect(discussionWords(0, 3)).toBe('3 labels');
    expect(discussionWords(0, 0)).toBe('');
  });
});

describe('labelsOn', () => {
  it("maps a node's labels by name, and nothing for a node without any", () => {
    const index = indexDiscussion(
      [],
      [label('l1'), label('l2', { label: 'evaluator wrong' }), label('l3', { nodeId: 'n2' })],
    );
    expect([...labelsOn(index, 'n1').keys()]).toEqual(['good thought', 'evaluator wrong']);
    expect(labelsOn(index, 'n3').size).toBe(0);
  });
});

describe('labelToggle', () => {
  const ada: Principal = { kind: 'user', id: 'u1', email: 'ada@x', name: 'Ada', role: 'member' };
  const bob: Principal = { kind: 'user', id: 'u2', email: 'bob@x', name: 'Bob', role: 'member' };
  const admin: Principal = { kind: 'user', id: 'u3', email: 'root@x', name: 'Root', role: 'admin' };

  it('puts a label that is not there', () => {
    expect(labelToggle(ada, undefined)).toBe('set');
  });

  it('takes off a label its setter, an admin or the local person put there', () => {
    expect(labelToggle(ada, label('l1'))).toBe('remove');
    expect(labelToggle(admin, label('l1'))).toBe('remove');
    expect(labelToggle({ kind: 'local' }, label('l1', { author: { id: null, name: 'person' } }))).toBe('remove');
  });

  it("asks the server (which refuses, naming who) for another member's label, or when nobody is known yet", () => {
    expect(labelToggle(bob, label('l1'))).toBe('set');
    expect(labelToggle(null, label('l1'))).toBe('set');
  });
});

describe('discussionMarkers', () => {
  it('shares one marker between marks closer than a slot, counting comments and labels', () => {
    const index = indexDiscussion(
      [comment('c1', { step: 1 }), comment('c2', { step: 2 }), comment('c3', { step: 100 })],
      [label('l1', { step: 2 })],
    );
    const markers = discussionMarkers(index.marks, 100, 10);
    expect(markers.map((m) => [m.first.step, m.comments, m.labels, m.at])).toEqual([
      [1, 2, 1, 0],
      [100, 1, 0, 1],
    ]);
    expect(describeMarker(markers[0]!)).toBe('2 comments, 1 label written at step 1 (the first on n1)');
  });

  it('places everything at the start of a log of one event', () => {
    const index = indexDiscussion([comment('c1', { step: 1, nodeId: null })], []);
    const [only] = discussionMarkers(index.marks, 1, 400);
    expect(only?.at).toBe(0);
    expect(describeMarker(only!)).toBe('1 comment written at step 1 (the first on the run)');
  });
});

describe('writtenWhen', () => {
  const now = new Date(2026, 11, 7, 14, 30, 0);
  it('says recent times relatively, then by clock, day and year', () => {
    expect(writtenWhen(new Date(2026, 11, 7, 14, 29, 40), now)).toBe('just now');
    expect(writtenWhen(new Date(2026, 11, 7, 14, 5, 0), now)).toBe('25 min ago');
    expect(writtenWhen(new Date(2026, 11, 7, 9, 4, 0), now)).toBe('09:04');
    expect(writtenWhen(new Date(2026, 11, 6, 22, 15, 0), now)).toBe('yesterday 22:15');
    expect(writtenWhen(new Date(2026, 2, 3, 8, 0, 0), now)).toBe('3 Mar 08:00');
    expect(writtenWhen(new Date(2025, 2, 3, 8, 0, 0), now)).toBe('3 Mar 2025');
  });
});

describe('commentLink', () => {
  it('opens the run at the comment, its ids escaped', () => {
    expect(commentLink('http://h:3000', 'r1', 'c 1')).toBe('http://h:3000/runs/r1?comment=c%201');
  });
});
