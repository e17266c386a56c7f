// The live stream over a long run: however many times it waits for the next batch, it holds one abort listener on
// the client's signal (a listener per wait piled up on a long run: a leak, and Node's MaxListenersExceeded warning).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { streamRunEvents } from './event-stream';
import { servicesPerTest } from './testing/services';

const testServices = servicesPerTest();

describe('streamRunEvents', () => {
  it('keeps at most one abort listener on the signal while it follows a run through many batches', async () => {
    const s = testServices.create();
    const { id } = await s.manager.create({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 5 },
    });
    const client = new AbortController();
    let most = 0;
    let seen = 0;
    for await (const event of streamRunEvents({
      prisma: s.prisma,
      bus: s.bus,
      runId: id,
      afterSeq: 0,
      follow: true,
      signal: client.signal,
    })) {
      seen = event.seq;
      most = Math.max(most, getEventListeners(client.signal, 'abort').length);
    }
    expect(seen).toBeGreaterThan(30); // many waits for the next batch
    expect(most).toBeLessThanOrEqual(1);
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
  });
});
