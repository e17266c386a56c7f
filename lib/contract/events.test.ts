/**
 * The event schemas as another program meets them (an import file, a foreign search streamed in): a hand-written
 * log reads back exactly as sent, "no limit" reads as null, and a wrong nested field is named by its path.
 * The export file's own messages (seq, order, folding) are pinned in lib/formats/export.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, explorationEventSchema } from './events';

const config = {
  maxDepth: 3,
  branchFactor: 2,
  beamWidth: 1,
  explorationStrategy: 'dfs',
  confidenceThreshold: 0.2,
  terminationConfidence: 0.9,
  maxTotalNodes: 10,
  maxIterationsPerBranch: 2,
  timeout: 5000,
  confidenceWeight: 1,
  progressWeight: 0,
  noveltyWeight: 0,
};
const score = { confidence: null, progress: null, novelty: null, composite: 0.5, reasoning: 'log', fallback: false };
const envelope = (seq: number, type: string, payload: unknown) => ({ runId: 'r1', seq, ts: 1000 + seq, type, payload });

const handWritten = [
  envelope(1, 'run.started', { goal: 'g', taskId: 'open-goal', agentName: 'py', modelId: 'm', config }),
  envelope(2, 'node.created', { nodeId: 'root', parentId: null, branch: null, score: null }),
  envelope(3, 'node.created', {
    nodeId: 'a',
    parentId: 'root',
    branch: { thought: 't', proposedAction: { type: 'tool_call', toolName: 'calc', arguments: { x: [1, 2] } } },
    score: { ...score, logValue: { value: 10, max: 20 } },
  }),
  envelope(4, 'run.finished', {
    reason: 'frontier-empty',
    detail: null,
    bestNodeId: 'a',
    output: 'o',
    answerSource: 'node',
    success: true,
    verified: null,
  }),
];

function firstIssue(event: unknown): string {
  const parsed = explorationEventSchema.safeParse(event);
  if (parsed.success) return 'accepted';
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('explorationEventSchema', () => {
  it('reads a log written by another program back exactly as it was sent', () => {
    for (const event of handWritten) expect(explorationEventSchema.parse(event)).toEqual(event);
  });

  it('reads a config time limit of 0 as null, the one meaning of "no limit"', () => {
    const started = explorationEventSchema.parse(
      envelope(1, 'run.started', { ...(handWritten[0]!.payload as object), config: { ...config, timeout: 0 } }),
    );
    expect(started.type === 'run.started' && started.payload.config.timeout).toBeNull();
  });

  it('names the nested field that is wrong, and refuses keys this version does not know', () => {
    const child = handWritten[2]!;
    const withScore = (s: object) => ({ ...child, payload: { ...(child.payload as object), score: s } });
    expect(firstIssue(withScore({ ...score, composite: 'high' }))).toBe(
      'payload.score.composite: Invalid input: expected number, received string',
    );
    expect(firstIssue(withScore({ ...score, weight: 2 }))).toBe('payload.score: Unrecognized key: "weight"');
    expect(firstIssue(envelope(2, 'steer.prune', { nodeId: 'a' }))).toBe(
      'payload.actor: Invalid input: expected string, received undefined',
    );
  });

  it('refuses an event type that has no payload schema', () => {
    expect(EVENT_TYPES).not.toContain('node.exploded');
    expect(firstIssue(envelope(2, 'node.exploded', {}))).toBe('type: unknown event type "node.exploded"');
  });
});
