// The TypeScript SDK against the real ingest routes and service (real SQLite through Prisma, on a loopback port):
// a program's search, which Arborist does not run, is stopped by a breakpoint the way a person's pause stops it,
// says why, and goes on when a person resumes it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Breakpoint } from '../../contract/breakpoints';
import type { ExplorationEvent } from '../../contract/events';
import { fold } from '../../engine/index';
import { Arborist, BUILTIN_COMMANDS } from '../../sdk/index';
import { until } from '../../sdk/testing';
import { listEvents } from '../run-log/events';
import { getRun } from '../repositories/runs';
import { serveIngestRoutes, type IngestRoutesServer } from '../testing/ingest-routes';
import { servicesPerTest } from '../testing/services';

const services = servicesPerTest();
let routes: IngestRoutesServer | null = null;
afterEach(async () => {
  await routes?.close();
  routes = null;
});

const failedVerification: Breakpoint = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' } };
const steps = (log: ExplorationEvent[], type: string) => log.filter((e) => e.type === type);

describe('a breakpoint on a search the SDK streams', () => {
  it('pauses the program at its next checkpoint with the hit, and it goes on when a person resumes', async () => {
    const s = services.create();
    routes = await serveIngestRoutes(s);
    const run = new Arborist({
      server: routes.url,
      flushIntervalMs: 10,
      pollWaitMs: 5_000,
      flushOnExit: false,
    }).startRun({ goal: 'make 24 from 4 9 10 13', commands: BUILTIN_COMMANDS, breakpoints: [failedVerification] });
    const ready = await run.ready;
    expect(ready).not.toBeNull();
    const runId = ready!.runId;

    // the program's loop: a step per checkpoint; its third node fails verification
    let taken = 0;
    const search = (async () => {
      run.node('root', null, { thought: '4 9 10 13' });
      while (await run.checkpoint()) {
        taken++;
        const id = `n${taken}`;
        run.node(id, 'root', { thought: `step ${taken}`, score: 0.5 });
        run.start(id);
        run.verify(id, taken !== 3, taken === 3 ? '4 * 4 = 16, not 24' : 'ok');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    await until(() => run.paused, 'the breakpoint to pause the program', 10_000);
    expect(run.breakpointHit).toMatchObject({
      breakpointId: 'vf',
      eventType: 'node.verified',
      nodeId: 'n3',
      detail: 'n3 failed verification: 4 * 4 = 16, not 24',
    });
    await run.flush();
    await expect.poll(async () => (await getRun(s.prisma, runId))?.status, { timeout: 10_000 }).toBe('paused');
    const paused = await listEvents(s.prisma, runId);
    const tree = fold(paused);
    // the page says why: the hit names the failing verification's event
    const verified = paused.find((e) => e.type === 'node.verified' && e.payload.nodeId === 'n3')!;
    expect(tree.breakpointHit).toMatchObject({ breakpointId: 'vf', seq: verified.seq, nodeId: 'n3' });
    expect(steps(paused, 'steer.pause').map((e) => e.payload)).toEqual([{ actor: 'breakpoint' }]);
    expect(tree.commands).toEqual([
      expect.objectContaining({ kind: 'pause', actor: 'breakpoint', outcome: 'applied', hit: tree.breakpointHit }),
    ]);

    const stoppedAt = taken;
    await s.ingest.request(runId, { type: 'resume', actor: 'ada' });
    await until(() => taken >= stoppedAt + 3, 'the program to go on after the resume', 10_000);
    expect(run.breakpointHit).toBeNull();
    await s.ingest.request(runId, { type: 'abort', actor: 'ada' });
    await search;
    const summary = await run.finish({ reason: 'aborted' });
    expect(summary.finished).toBe(true);

    const log = await listEvents(s.prisma, runId);
    // one stop: the later verifications passed, and nothing else asked the program to pause
    const final = fold(log);
    expect(final.commands.map((c) => [c.kind, c.actor, c.outcome])).toEqual([
      ['pause', 'breakpoint', 'applied'],
      ['resume', 'ada', 'applied'],
      ['abort', 'ada', 'applied'],
    ]);
    expect(final).toMatchObject({ status: 'finished', breakpointHit: null });
  }, 30_000);
});
