import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type ExplorationEvent } from '@/lib/contract/events';
import { recordGame24, recordSteeredRun, type RecordedLog } from '../tasks/testing/recorded';
import {
  EVENT_KINDS,
  actionLabel,
  describeEvent,
  eventActor,
  eventKind,
  eventNodeIds,
  formatOffset,
  isBadEvent,
  oneLine,
  typesOfKind,
} from './describe-event';

const base = { runId: 'r', seq: 1, ts: 0 };
const ev = (e: Pick<ExplorationEvent, 'type' | 'payload'>) => ({ ...base, ...e }) as ExplorationEvent;

let game24: RecordedLog;
let steered: RecordedLog;
beforeAll(async () => {
  game24 = await recordGame24();
  steered = await recordSteeredRun();
});

describe('eventKind', () => {
  it('puts every event type in one of the chips’ kinds', () => {
    const kinds = new Set(EVENT_KINDS.map((k) => k.kind));
    for (const type of EVENT_TYPES) expect(kinds.has(eventKind(type))).toBe(true);
    expect(eventKind('candidate.dropped')).toBe('score');
    expect(eventKind('steer.prune')).toBe('steer');
    expect(eventKind('model.called')).toBe('model');
  });

  it('lets the type filter offer every event type once, under the chip of its kind', () => {
    const offered = EVENT_KINDS.flatMap(({ kind }) => typesOfKind(kind));
    expect([...offered].sort()).toEqual([...EVENT_TYPES].sort());
    expect(typesOfKind('run')).toEqual([
      'run.queued',
      'run.started',
      'run.paused',
      'run.resumed',
      'run.interrupted',
      'run.failed',
      'run.finished',
    ]);
  });
});

describe('describeEvent', () => {
  it('gives every event of real runs a non-empty single line', () => {
    for (const event of [...game24.events, ...steered.events]) {
      const line = describeEvent(event);
      expect(line.length, event.type).toBeGreaterThan(0);
      expect(line).not.toMatch(/\n/);
      expect(line.length).toBeLessThanOrEqual(160);
    }
  });

  it('says what each kind of event did', () => {
    const at = (type: string) => game24.events.find((e) => e.type === type) as ExplorationEvent;
    expect(describeEvent(at('run.started'))).toBe('“4 9 10 13” · game24 · simulated · beam');
    expect(describeEvent(at('node.created'))).toBe('root: the goal');
    expect(describeEvent(at('branches.generated'))).toBe('3 candidates');
    expect(describeEvent(at('candidate.dropped'))).toMatch(/^#2 dropped \(0\.20\): 9 \+ 4 = 13 .* below the threshold/);
    expect(describeEvent(at('node.expanded'))).toBe('→ n1, n2');
    expect(describeEvent(at('node.verified'))).toMatch(/^✓ passed: 13 - 9 = 4 is right/);
    expect(describeEvent(at('node.failed'))).toMatch(/^verification failed: dead end/);
    expect(describeEvent(at('backtrack'))).toMatch(/^n\d+ → n\d+: verification failed$/);
    expect(describeEvent(at('model.called'))).toMatch(/^generate · simulated · \d+ ms · \d+→\d+ tok · \$/);
    expect(describeEvent(at('run.finished'))).toBe('terminated · verified · Answer: (13 - 9) * (10 - 4) = 24');
  });

  it('names the person behind a steering command', () => {
    const prune = steered.events.find((e) => e.type === 'steer.prune') as ExplorationEvent;
    expect(eventActor(prune)).toBe('alice');
    expect(describeEvent(prune)).toMatch(/^prune n\d+ and its subtree$/);
    const expand = steered.events.find((e) => e.type === 'steer.expand') as ExplorationEvent;
    expect(eventActor(expand)).toBe('bob');
    expect(eventActor(ev({ type: 'steer.pause', payload: { actor: 'carol' } }))).toBe('carol');
    expect(eventActor(game24.events[0] as ExplorationEvent)).toBeNull();
  });

  it('covers the events real runs rarely show', () => {
    expect(describeEvent(ev({ type: 'run.paused', payload: { reason: 'step' } }))).toBe('paused after one step');
    expect(describeEvent(ev({ type: 'run.resumed', payload: { rolledBackNodeId: 'n4' } }))).toMatch(/n4 was rolled/);
    expect(describeEvent(ev({ type: 'node.expanded', payload: { nodeId: 'n1', childIds: [] } }))).toBe(
      'no children to queue',
    );
    expect(
      describeEvent(ev({ type: 'backtrack', payload: { fromId: 'n3', toId: null, reason: 'every candidate failed' } })),
    ).toBe('n3 → nowhere left: every candidate failed');
    const failedCall = ev({
      type: 'model.called',
      payload: {
        nodeId: 'n2',
        purpose: 'execute',
        modelId: 'my-model',
        messages: [],
        response: null,
        error: 'rate limited\nretry later',
        usage: { inputTokens: 10, outputTokens: 0 },
        cost: null,
        latencyMs: 1500,
      },
    });
    expect(describeEvent(failedCall)).toBe(
      'execute · my-model · 1.5 s · 10→0 tok · unpriced · error: rate limited retry later',
    );
    expect(isBadEvent(failedCall)).toBe(true);
  });
});

describe('eventNodeIds', () => {
  it('finds the node an event is about; a backtrack is about both ends; run events about none', () => {
    expect(eventNodeIds(ev({ type: 'backtrack', payload: { fromId: 'n5', toId: 'n6', reason: '' } }))).toEqual([
      'n5',
      'n6',
    ]);
    expect(eventNodeIds(ev({ type: 'node.started', payload: { nodeId: 'n3', mode: 'execute' } }))).toEqual(['n3']);
    expect(eventNodeIds(ev({ type: 'steer.abort', payload: { actor: 'a' } }))).toEqual([]);
    expect(eventNodeIds(game24.events[0] as ExplorationEvent)).toEqual([]);
    for (const e of game24.events) for (const id of eventNodeIds(e)) expect(game24.tree.nodes[id]).toBeDefined();
  });
});

describe('isBadEvent', () => {
  it('flags failures and failed verifications, not routine drops', () => {
    const bad = game24.events.filter(isBadEvent).map((e) => e.type);
    expect(new Set(bad)).toEqual(new Set(['node.failed', 'node.verified']));
    expect(bad.filter((t) => t === 'node.verified')).toHaveLength(4); // the four failed checks
    expect(isBadEvent(ev({ type: 'node.verified', payload: { nodeId: 'n1', passed: false, trace: 'x' } }))).toBe(true);
  });
});

describe('formatting', () => {
  it('writes offsets from the run start', () => {
    expect(formatOffset(0)).toBe('+0.000s');
    expect(formatOffset(12_345)).toBe('+12.345s');
    expect(formatOffset(62_005)).toBe('+1:02.005');
    expect(formatOffset(3_723_004)).toBe('+1:02:03.004');
    expect(formatOffset(-5)).toBe('−0.005s');
  });

  it('flattens text to one line', () => {
    expect(oneLine('a\n\n  b\tc')).toBe('a b c');
    expect(oneLine('x'.repeat(10), 5)).toBe('xxxx…');
  });

  it('names actions', () => {
    expect(actionLabel({ type: 'response', content: '' })).toBe('direct response');
    expect(actionLabel({ type: 'sub_goal', goal: 'g' })).toBe('sub-goal');
    expect(actionLabel({ type: 'tool_call', toolName: 'search', arguments: {} })).toBe('tool call: search');
  });
});
