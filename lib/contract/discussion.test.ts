// The discussion's contract: what a comment and a label may be, the label set's key per name, and the check of an
// export file's discussion against its run's nodes.
import { describe, expect, it } from 'vitest';
import {
  addCommentInput,
  discussionProblem,
  type ExportedDiscussion,
  exportedDiscussionSchema,
  labelChoices,
  setLabelInput,
} from './discussion';

const firstIssue = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join('.')}: ${issue.message}` : 'ok';
};

describe('comment and label inputs', () => {
  it('trims a comment, and refuses an empty one or one over 10,000 characters', () => {
    expect(addCommentInput.parse({ runId: 'r', nodeId: 'n1', text: '  hi \n' }).text).toBe('hi');
    expect(firstIssue(addCommentInput.safeParse({ runId: 'r', text: ' \n ' }))).toBe('text: a comment cannot be empty');
    expect(firstIssue(addCommentInput.safeParse({ runId: 'r', text: 'x'.repeat(10_000) }))).toBe('ok');
    expect(firstIssue(addCommentInput.safeParse({ runId: 'r', text: 'x'.repeat(10_001) }))).toBe(
      'text: a comment has at most 10,000 characters',
    );
    expect(firstIssue(addCommentInput.safeParse({ runId: 'r', text: 'x', step: -1 }))).toMatch(/^step: /);
    expect(firstIssue(addCommentInput.safeParse({ runId: 'r', text: 'x', html: '<b>' }))).toMatch(/Unrecognized key/);
  });

  it("limits a label's name and note", () => {
    expect(firstIssue(setLabelInput.safeParse({ runId: 'r', nodeId: 'n1', label: '' }))).toBe(
      'label: a label needs a name',
    );
    expect(firstIssue(setLabelInput.safeParse({ runId: 'r', nodeId: 'n1', label: 'a', note: 'x'.repeat(501) }))).toBe(
      "note: a label's note has at most 500 characters",
    );
  });

  it('gives each label of the set its key, 1 to 9, in order', () => {
    expect(labelChoices(['good', 'bad'])).toEqual([
      { name: 'good', key: '1' },
      { name: 'bad', key: '2' },
    ]);
  });
});

describe("an export file's discussion against its run", () => {
  const at = '2026-12-07T10:00:00.000Z';
  const comment = (id: string, nodeId: string | null, replyTo: string | null = null) => ({
    id,
    nodeId,
    replyTo,
    text: id,
    deleted: false,
    author: { name: 'ada' },
    step: 3,
    createdAt: at,
    editedAt: null,
  });
  const label = (nodeId: string, name: string) => ({
    nodeId,
    label: name,
    note: null,
    author: { name: 'ada' },
    step: 3,
    createdAt: at,
  });
  const nodes = new Set(['n1', 'n2']);
  const problem = (discussion: ExportedDiscussion) => discussionProblem(discussion, (id) => nodes.has(id), 10);

  it('accepts threads on known nodes and on the run, and labels from any set (another team chose theirs)', () => {
    const discussion = exportedDiscussionSchema.parse({
      comments: [comment('a', 'n1'), comment('b', null, 'a'), comment('c', null)],
      labels: [label('n2', 'their own label')],
    });
    expect(problem(discussion)).toBeNull();
  });

  it('refuses a node the log lacks, a reply before its thread or to a reply, an id or a label twice', () => {
    expect(problem({ comments: [comment('a', 'n9')], labels: [] })).toEqual({
      path: ['comments', 0, 'nodeId'],
      message: "no node n9 in the run's log",
    });
    expect(problem({ comments: [comment('b', 'n1', 'a'), comment('a', 'n1')], labels: [] })?.path).toEqual([
      'comments',
      0,
      'replyTo',
    ]);
    expect(
      problem({ comments: [comment('a', 'n1'), comment('b', 'n1', 'a'), comment('c', 'n1', 'b')], labels: [] })?.path,
    ).toEqual(['comments', 2, 'replyTo']);
    expect(problem({ comments: [comment('a', 'n1'), comment('a', 'n2')], labels: [] })?.message).toBe(
      'comment id a twice',
    );
    expect(problem({ comments: [], labels: [label('n1', 'x'), label('n1', 'x')] })?.message).toBe(
      '"x" twice on node n1',
    );
    expect(problem({ comments: [], labels: [label('n7', 'x')] })?.path).toEqual(['labels', 0, 'nodeId']);
    expect(problem({ comments: [{ ...comment('a', 'n1'), step: 11 }], labels: [] })).toEqual({
      path: ['comments', 0, 'step'],
      message: "step 11 is past the log's last (10)",
    });
    expect(problem({ comments: [], labels: [{ ...label('n1', 'x'), step: 11 }] })?.path).toEqual(['labels', 0, 'step']);
  });
});
