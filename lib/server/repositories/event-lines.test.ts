// listEventLines writes the NDJSON of a run's log without making its events: every line must be exactly
// JSON.stringify of the event listEvents gives (prompts put back from their stored blocks), page by page.
import { describe, expect, it } from 'vitest';
import { servicesPerTest } from '../testing/services';
import { listEventLines, listEvents } from './events';

const testServices = servicesPerTest();

describe('listEventLines', () => {
  it("is listEvents' events as JSON lines, byte for byte, prompts and all, in pages", async () => {
    const s = testServices.create();
    const run = await s.manager.create({
      taskId: 'open-goal',
      goal: 'Reduce the p99 latency of the checkout API',
      config: { maxTotalNodes: 40, maxDepth: 6 },
      model: { provider: 'simulated', seed: 11, latencyMs: 0 },
    });
    await s.manager.settled(run.id);
    const events = await listEvents(s.prisma, run.id);
    // the case that matters: model calls whose long messages are stored as shared blocks
    const calls = events.filter((e) => e.type === 'model.called');
    expect(calls.length).toBeGreaterThan(5);
    expect(calls.some((e) => e.type === 'model.called' && e.payload.messages.some((m) => m.content.length > 400))).toBe(
      true,
    );
    const expected = events.map((event) => `${JSON.stringify(event)}\n`);

    const whole = await listEventLines(s.prisma, run.id);
    expect(whole.text).toBe(expected.join(''));
    expect(whole).toMatchObject({ count: events.length, lastSeq: events.length });
    expect(whole.types.has('run.finished')).toBe(true);

    const page = await listEventLines(s.prisma, run.id, { afterSeq: 10, limit: 25 });
    expect(page.text).toBe(expected.slice(10, 35).join(''));
    expect(page).toMatchObject({ count: 25, lastSeq: 35 });
    expect(page.types.has('run.finished')).toBe(false);

    const past = await listEventLines(s.prisma, run.id, { afterSeq: events.length });
    expect(past).toMatchObject({ text: '', count: 0, lastSeq: events.length });
  });
});
