// What the server keeps once a run has ended (issue 16: a 100k-event run left ~80 MB in the heap): the manager no
// longer holds it live, the bus has no subscriber left for it once its streams ended, and Prisma's remembered
// queries no longer carry the run's writes (its events, nodes and snapshot as query arguments); the same for a run
// streamed in through the ingest API once its client finishes it.
import { getLogs } from '@prisma/debug';
import { describe, expect, it } from 'vitest';
import { streamRunEvents } from '../streaming/event-stream';
import { servicesPerTest } from '../testing/services';

const testServices = servicesPerTest();

describe('a finished run leaves nothing behind in the server', () => {
  it("is gone from the manager's live runs, the bus's subscribers and Prisma's query history", async () => {
    const s = testServices.create();
    const run = await s.manager.create({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 0 },
    });
    let last = 0;
    // the stream ends when the run has stopped for good: after the manager let it go
    for await (const event of streamRunEvents({
      prisma: s.prisma,
      bus: s.bus,
      runId: run.id,
      afterSeq: 0,
      follow: true,
    }))
      last = event.seq;
    expect(last).toBeGreaterThan(10);
    expect(s.manager.executingHere).toBe(0);
    expect(s.bus.subscriberCount(run.id)).toBe(0);
    // only reads came after its end: none of its writes (and their payloads) is remembered
    expect(getLogs(Number.MAX_SAFE_INTEGER)).not.toMatch(/INSERT INTO "Event"|INSERT INTO "Node"|Snapshot/);
  });

  it("an external run finished by its client leaves no write of it in Prisma's query history", async () => {
    const s = testServices.create();
    const { runId } = await s.ingest.create(
      { goal: 'make 24 from 4 9 10 13', task: 'my-tot', model: 'llama-3', agent: 'my-tot-loop' },
      { ownerId: null, actor: 'tester' },
    );
    const answer = await s.ingest.append(runId, [
      { seq: 1, op: 'node', id: 'root', parent: null },
      { seq: 2, op: 'node', id: 'a', parent: 'root', thought: 'a thought only this run wrote', score: 0.7 },
      { seq: 3, op: 'finish', output: '24', best: 'a', success: true },
    ]);
    expect(answer).toMatchObject({ status: 'finished' });
    expect(getLogs(Number.MAX_SAFE_INTEGER)).not.toContain('a thought only this run wrote');
  });
});
