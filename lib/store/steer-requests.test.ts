import { describe, expect, it } from 'vitest';
import { fold, type SteerRequest } from '@/lib/engine/index';
import { externalSearchLog } from '@/lib/engine/testing';
import { commandState, commandWhat, lastNodeCommand, nodeCommand, runCommand, waitingCount } from './steer-requests';

const clock = (ts: number) => `t${ts}`;
const request = (patch: Partial<SteerRequest>): SteerRequest => ({
  seq: 1,
  kind: 'prune',
  nodeId: 'n3',
  actor: 'alice',
  outcome: 'requested',
  reason: null,
  ackSeq: null,
  requestedAt: 100,
  answeredAt: null,
  hit: null,
  ...patch,
});

describe("a command's life", () => {
  it('reads as waiting for the client since it was asked, then applied, or refused with the reason', () => {
    expect(commandState(request({}), clock)).toBe('waiting for the client since t100');
    expect(commandState(request({ outcome: 'applied' }), clock)).toBe('applied');
    expect(commandState(request({ outcome: 'refused', reason: 'busy' }), clock)).toBe('refused: busy');
    expect(commandState(request({ outcome: 'refused' }), clock)).toBe('refused (no reason given)');
    expect(
      commandState(request({ outcome: 'ended', reason: 'the run finished before the client answered' }), clock),
    ).toBe('ended: the run finished before the client answered');
    expect(commandWhat(request({}))).toBe('prune n3');
    expect(commandWhat(request({ kind: 'pause', nodeId: null }))).toBe('pause');
  });

  it('shows on a node while it waits or once refused, and no longer once applied', () => {
    const waiting = [request({ seq: 1 })];
    expect(nodeCommand(waiting, 'n3')?.seq).toBe(1);
    expect(nodeCommand(waiting, 'n4')).toBeNull();
    expect(nodeCommand([request({ outcome: 'applied' })], 'n3')).toBeNull();
    expect(lastNodeCommand([request({ outcome: 'applied' })], 'n3')?.outcome).toBe('applied');
    // the last one naming the node decides: a refusal, then a new request that waits
    const again = [request({ seq: 1, outcome: 'refused', reason: 'no' }), request({ seq: 5, kind: 'expand' })];
    expect(nodeCommand(again, 'n3')?.seq).toBe(5);
    expect(nodeCommand(again.slice(0, 1), 'n3')?.outcome).toBe('refused');
  });

  it('shows the last run-level command in the header unless applied', () => {
    const log = [request({ seq: 1 }), request({ seq: 2, kind: 'pause', nodeId: null, outcome: 'refused' })];
    expect(runCommand(log)?.seq).toBe(2);
    expect(runCommand([...log, request({ seq: 3, kind: 'resume', nodeId: null, outcome: 'applied' })])).toBeNull();
    expect(runCommand([request({})])).toBeNull();
  });

  it('follows the folded log of an external search: one prune applied, one pause refused by the client', () => {
    const tree = fold(externalSearchLog());
    expect(tree.commands.map((c) => `${commandWhat(c)}: ${commandState(c, clock)}`)).toEqual([
      'prune b: applied',
      'pause: refused: busy',
    ]);
    expect(nodeCommand(tree.commands, 'b')).toBeNull();
    expect(runCommand(tree.commands)?.reason).toBe('busy');
    expect(waitingCount(tree.commands)).toBe(0);
    const log = externalSearchLog();
    const asked = fold(
      log.slice(
        0,
        log.findIndex((e) => e.type === 'steer.acked'),
      ),
    );
    expect(waitingCount(asked.commands)).toBe(1);
    expect(nodeCommand(asked.commands, 'b')?.outcome).toBe('requested');
  });
});
