// The page's view of a run's discussion: threads in order, what each node has (its badge), and the timeline's marks.
import { describe, expect, it } from 'vitest';
import type { NodeLabel, RunComment } from '../contract/discussion';
import { discussionBadge, indexDiscussion, NO_DISCUSSION } from './discussion';

const comment = (id: string, nodeId: string | null, step: number, extra: Partial<RunComment> = {}): RunComment => ({
  id,
  runId: 'r',
  nodeId,
  replyTo: null,
  text: id,
  deleted: false,
  author: { id: null, name: 'ada' },
  step,
  createdAt: new Date(step),
  editedAt: null,
  ...extra,
});
const label = (nodeId: string, name: string, step: number): NodeLabel => ({
  id: `${nodeId}:${name}`,
  runId: 'r',
  nodeId,
  label: name,
  note: null,
  author: { id: null, name: 'ada' },
  step,
  createdAt: new Date(step),
});

describe('indexDiscussion', () => {
  it('is the shared empty index when there is nothing', () => {
    expect(indexDiscussion([], [])).toBe(NO_DISCUSSION);
  });

  it('threads replies under their first, counts per node (a deleted first left out), marks by step', () => {
    const index = indexDiscussion(
      [
        comment('a', 'n1', 9, { deleted: true, text: '' }),
        comment('b', 'n1', 4, { replyTo: 'a' }),
        comment('c', null, 2),
        comment('d', 'n2', 7),
      ],
      [label('n2', 'good thought', 5), label('n2', 'evaluator wrong', 1)],
    );
    expect(index.threads.map((t) => [t.first.id, t.replies.map((r) => r.id)])).toEqual([
      ['a', ['b']],
      ['c', []],
      ['d', []],
    ]);
    expect(index.byNode.get('n1')).toEqual({ comments: 1, labels: [] });
    expect(index.byNode.get('n2')).toEqual({ comments: 1, labels: ['good thought', 'evaluator wrong'] });
    expect(index.byNode.has('n3')).toBe(false);
    expect(index.marks.map((m) => `${m.step}:${m.kind}:${m.id}`)).toEqual([
      '1:label:n2:evaluator wrong',
      '2:comment:c',
      '4:comment:b',
      '5:label:n2:good thought',
      '7:comment:d',
    ]);
    expect(discussionBadge(index.byNode.get('n2'))).toEqual({ comments: 1, labels: 2 });
    expect(discussionBadge(undefined)).toBeNull();
  });
});
