// Experiments and datasets through the API (createCaller) on SQLite and PostgreSQL: every figure recomputed from the
// cells' own event logs, refusals before anything is stored, versions, pause / resume / abort, a cost cap, a restart.
import { TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import type { CreateExperimentInput, ExperimentView } from '../../contract/experiments';
import { fold } from '../../engine/index';
import { wilsonInterval } from '../../experiments/index';
import { BACKENDS } from '../testing/db';
import { servicesPerTest, type TestServices } from '../testing/services';
import { testContext } from '../testing/context';
import { createCaller } from './routers/root';

const testServices = servicesPerTest();

const PUZZLES = ['4 9 10 13', '1 1 4 6', '2 7 8 8', '1 2 3 4'];
const simulated = (seed = 1, latencyMs = 0) => ({ provider: 'simulated' as const, seed, latencyMs });

const twoBeams = (more: Partial<CreateExperimentInput> = {}): CreateExperimentInput => ({
  taskId: 'game24',
  items: PUZZLES,
  configurations: [
    { label: 'beam 1', config: { beamWidth: 1 }, model: simulated() },
    { label: 'beam 3', config: { beamWidth: 3 }, model: simulated() },
  ],
  ...more,
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
    return { code: 'OK', message: '' };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return { code: error.code, message: error.message };
  }
}

type Api = ReturnType<typeof createCaller>;

async function until(api: Api, id: string, done: (view: ExperimentView) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await api.experiment.byId({ id });
    if (done(view)) return view;
    if (Date.now() > deadline)
      throw new Error(`experiment ${id} still ${view.status}: ${JSON.stringify(view.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const finished = (view: ExperimentView) => view.status !== 'running' && view.status !== 'paused';

async function nothingStored(s: TestServices) {
  expect(await s.prisma.experiment.count()).toBe(0);
  expect(await s.prisma.run.count()).toBe(0);
}

describe.each(BACKENDS)('experiments (%s)', (backend) => {
  async function setup(options: Parameters<typeof testServices.open>[1] = {}) {
    const s = await testServices.open(backend, options);
    s.experiments.start();
    return { s, api: createCaller(testContext(s, { actor: 'alice' })) };
  }

  it('runs every cell as an ordinary run, and every figure is the runs’ own, recomputed from their logs', async () => {
    const { s, api } = await setup();
    const { id } = await api.experiment.create(twoBeams({ repetitions: 2 }));
    const view = await until(api, id, finished);
    expect(view.status).toBe('finished');
    expect(view.cells).toHaveLength(PUZZLES.length * 2 * 2);
    expect(view.items.map((i) => i.goal)).toEqual(PUZZLES);
    expect(new Set(view.cells.map((c) => c.runId)).size).toBe(view.cells.length);

    for (const [index, configuration] of view.configurations.entries()) {
      const cells = view.cells.filter((c) => c.configuration === index);
      let solved = 0;
      let cost = 0;
      let tokens = 0;
      let explored = 0;
      for (const cell of cells) {
        const { events } = await api.run.events({ id: cell.runId!, limit: 10_000 });
        const tree = fold(events);
        const run = await api.run.byId({ id: cell.runId! });
        // the cell is this run: its goal, its configuration, its repetition's seed
        expect(run.goal).toBe(PUZZLES[cell.item]);
        expect(run.config.beamWidth).toBe(index === 0 ? 1 : 3);
        expect(run.seed).toBe(1 + cell.repetition);
        expect(cell.outcome).toBe(tree.success ? 'solved' : 'failed');
        solved += tree.success ? 1 : 0;
        cost += tree.stats.cost;
        tokens += tree.stats.tokenUsage.totalTokens;
        explored += tree.stats.exploredNodes;
        expect(cell.backtracks).toBe(tree.stats.backtrackCount);
        expect(cell.modelCalls).toBe(tree.stats.modelCalls);
      }
      expect(configuration).toMatchObject({ label: index === 0 ? 'beam 1' : 'beam 3', cells: 8, done: 8, solved });
      expect(configuration.successRate).toBeCloseTo(solved / 8, 10);
      expect(configuration.interval).toEqual(wilsonInterval(solved, 8));
      expect(configuration.costUsd).toBeCloseTo(cost, 10);
      expect(configuration.meanCostUsd).toBeCloseTo(cost / 8, 10);
      expect(configuration.meanTokens).toBeCloseTo(tokens / 8, 10);
      expect(configuration.meanExploredNodes).toBeCloseTo(explored / 8, 10);
    }
    expect(view.progress).toMatchObject({ done: 16, total: 16, etaMs: null });
    const listed = await api.experiment.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id,
      status: 'finished',
      cells: 16,
      done: 16,
      configurations: ['beam 1', 'beam 3'],
    });
    expect(await s.prisma.run.count()).toBe(16);

    // a cell's run knows its way back; a run of no experiment says none
    const cell = view.cells.find((c) => c.item === 2 && c.configuration === 1 && c.repetition === 1)!;
    expect(await api.experiment.ofRun({ runId: cell.runId! })).toMatchObject({
      experimentId: id,
      item: 2,
      configuration: 1,
      repetition: 1,
      configurationLabel: 'beam 3',
    });
    const alone = await api.run.create({ taskId: 'game24', goal: '4 9 10 13', model: simulated() });
    expect(await api.experiment.ofRun({ runId: alone.id })).toBeNull();
    // the runs list tells a person's own runs from the experiments' cells
    const runIds = async (filter: { mine?: boolean; cells?: boolean }) =>
      (await api.run.list({ ...filter, limit: 200 })).items.map((r) => r.id).sort();
    expect(await runIds({ mine: true })).toEqual([alone.id]);
    expect(await runIds({ cells: true })).toEqual(view.cells.map((c) => c.runId!).sort());
    expect((await api.run.summary({ cells: true })).runs).toBe(16);
  });

  it('counts the labels on each configuration’s cells’ runs (as label.list has them), and the runs list filters by them', async () => {
    const { s, api } = await setup();
    const { id } = await api.experiment.create(twoBeams());
    const ran = await until(api, id, finished);
    const runOf = (item: number, configuration: number) =>
      ran.cells.find((c) => c.item === item && c.configuration === configuration)!.runId!;
    const nodesOf = async (runId: string) =>
      (await s.prisma.node.findMany({ where: { runId }, select: { nodeId: true }, orderBy: { nodeId: 'asc' } })).map(
        (n) => n.nodeId,
      );
    const label = async (runId: string, node: number, name: string) =>
      api.label.set({ runId, nodeId: (await nodesOf(runId))[node]!, label: name });
    // beam 1: "evaluator wrong" on two runs, "good thought" on one; beam 3: "good thought" on two nodes of one run
    await label(runOf(1, 0), 0, 'evaluator wrong');
    await label(runOf(1, 0), 1, 'good thought');
    await label(runOf(3, 0), 0, 'evaluator wrong');
    await label(runOf(2, 1), 0, 'good thought');
    await label(runOf(2, 1), 1, 'good thought');
    // a run of no experiment carries a label too: counted nowhere here
    const alone = await api.run.create({ taskId: 'game24', goal: '4 9 10 13', model: simulated() });
    await vi.waitFor(async () => expect((await api.run.byId({ id: alone.id })).status).toBe('finished'));
    await label(alone.id, 0, 'evaluator wrong');

    const view = await api.experiment.byId({ id });
    expect(view.configurations.map((c) => c.labels)).toEqual([
      [
        { label: 'evaluator wrong', count: 2 },
        { label: 'good thought', count: 1 },
      ],
      [{ label: 'good thought', count: 2 }],
    ]);
    // the same sums, recomputed from each cell's run's own labels
    const recomputed = view.configurations.map(() => new Map<string, number>());
    for (const cell of view.cells) {
      for (const l of await api.label.list({ runId: cell.runId! }))
        recomputed[cell.configuration]!.set(l.label, (recomputed[cell.configuration]!.get(l.label) ?? 0) + 1);
    }
    for (const [i, configuration] of view.configurations.entries())
      expect(Object.fromEntries(configuration.labels.map((l) => [l.label, l.count]))).toEqual(
        Object.fromEntries(recomputed[i]!),
      );
    // a label taken off is no longer counted
    await api.label.remove({ runId: runOf(1, 0), nodeId: (await nodesOf(runOf(1, 0)))[1]!, label: 'good thought' });
    expect((await api.experiment.byId({ id })).configurations[0]!.labels).toEqual([
      { label: 'evaluator wrong', count: 2 },
    ]);

    // the runs list: exactly the labelled runs, with their counts, and the summary over them
    await api.comment.add({ runId: runOf(3, 0), text: 'the value prompt misread 13' });
    const listed = async (filter: { label: string; cells?: boolean }) =>
      Object.fromEntries(
        (await api.run.list({ ...filter, limit: 200 })).items.map((r) => [r.id, r.discussion] as const),
      );
    expect(await listed({ label: 'evaluator wrong' })).toEqual({
      [runOf(1, 0)]: { comments: 0, labels: 1 },
      [runOf(3, 0)]: { comments: 1, labels: 1 },
      [alone.id]: { comments: 0, labels: 1 },
    });
    expect(Object.keys(await listed({ label: 'evaluator wrong', cells: true })).sort()).toEqual(
      [runOf(1, 0), runOf(3, 0)].sort(),
    );
    expect(await listed({ label: 'good thought' })).toEqual({ [runOf(2, 1)]: { comments: 0, labels: 2 } });
    expect(await listed({ label: 'hallucinated move' })).toEqual({});
    expect(await api.run.summary({ label: 'evaluator wrong' })).toMatchObject({ runs: 3 });
    expect(await api.run.summary({ label: 'evaluator wrong', cells: true })).toMatchObject({ runs: 2 });
    expect(await refusal(api.run.list({ label: '  ' }))).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses what cannot run before anything starts, naming the field', async () => {
    const { s, api } = await setup();
    const badItem = await refusal(api.experiment.create(twoBeams({ items: ['4 9 10 13', '4 9 10'] })));
    expect(badItem.code).toBe('BAD_REQUEST');
    expect(badItem.message).toMatch(/item 2 \("4 9 10"\)/);
    const estimate = await api.experiment.estimate(twoBeams({ items: ['4 9 10'] }));
    expect(estimate.problems[0]).toMatchObject({ field: 'items.0' });

    expect((await refusal(api.experiment.create(twoBeams({ items: [] })))).code).toBe('BAD_REQUEST');
    const tooMany = await refusal(
      api.experiment.create(twoBeams({ items: Array.from({ length: 2_501 }, () => '4 9 10 13'), repetitions: 2 })),
    );
    expect(tooMany.message).toMatch(/10,004 cells .* at most 10,000/);
    const engineRefuses = await refusal(
      api.experiment.create({
        taskId: 'game24',
        items: PUZZLES,
        configurations: [{ label: 'wide', config: { beamWidth: 5, branchFactor: 2 } }],
      }),
    );
    expect(engineRefuses.message).toMatch(/beamWidth cannot exceed branchFactor/);
    expect(
      (
        await api.experiment.estimate(
          twoBeams({ configurations: [{ label: 'w', config: { beamWidth: 5, branchFactor: 2 } }] }),
        )
      ).problems[0]!.field,
    ).toBe('configurations.0.config.beamWidth');
    const sameLabel = await refusal(
      api.experiment.create(twoBeams({ configurations: [{ label: 'a' }, { label: 'a' }] })),
    );
    expect(sameLabel.message).toMatch(/two configurations are labelled "a"/);
    const overCap = await refusal(api.experiment.create(twoBeams({ costCapUsd: 0.000001 })));
    expect(overCap.message).toMatch(/passes the experiment's cap/);
    await nothingStored(s);
  });

  it('estimates the cost from the model’s price, then from the runs it has seen', async () => {
    const { api } = await setup();
    const before = await api.experiment.estimate(twoBeams());
    expect(before.cells).toBe(8);
    expect(before.basis).toMatch(/no earlier run/);
    expect(before.estimatedCostUsd).toBeGreaterThan(0);
    const { id } = await api.experiment.create(twoBeams());
    const view = await until(api, id, finished);
    const after = await api.experiment.estimate(twoBeams());
    expect(after.basis).toMatch(/mean of 4 earlier run\(s\) of this configuration/);
    // the same configurations on the same items with the same seeds cost what they cost
    expect(after.estimatedCostUsd).toBeCloseTo(
      view.configurations.reduce((sum, c) => sum + c.costUsd, 0),
      10,
    );
  });

  it('makes datasets from a file, refuses a bad line by its number and stores nothing, and versions edits', async () => {
    const { s, api } = await setup();
    const bad = await refusal(
      api.dataset.create({
        name: 'mine',
        taskId: 'game24',
        file: { format: 'jsonl', text: '"4 9 10 13"\n{"goal": "1 1 4 6", "tags": ["easy"]}\n"4 9 10"\n' },
      }),
    );
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/^line 3: /);
    expect(await s.prisma.dataset.count()).toBe(0);

    const csv = 'goal,expected,tags\n4 9 10 13,,hard\n1 1 4 6,(1+1)*... ,easy;small\n';
    const made = await api.dataset.create({ name: 'mine', taskId: 'game24', file: { format: 'csv', text: csv } });
    expect(made).toMatchObject({ version: 1, itemCount: 2 });
    const { id } = await api.experiment.create({
      taskId: 'game24',
      datasetId: made.id,
      configurations: [{ label: 'beam', model: simulated() }],
    });
    await until(api, id, finished);
    const edited = await api.dataset.update({ id: made.id, items: [{ goal: '2 7 8 8', tags: [] }] });
    expect(edited.version).toBe(2);
    const view = await api.experiment.byId({ id });
    // the experiment keeps the version it ran
    expect(view.dataset).toMatchObject({ id: made.id, version: 1, itemCount: 2 });
    expect(view.items.map((i) => [i.goal, i.tags])).toEqual([
      ['4 9 10 13', ['hard']],
      ['1 1 4 6', ['easy', 'small']],
    ]);
    expect((await api.dataset.list({ taskId: 'game24' }))[0]).toMatchObject({ id: made.id, version: 2, itemCount: 1 });

    const shipped = await api.dataset.create({ name: 'paper', taskId: 'game24', shipped: 'game24:900-999' });
    expect(shipped.itemCount).toBe(100);
  });

  it('pauses (no new cell starts), resumes, and aborts (the rest are skipped)', async () => {
    const { s, api } = await setup({ maxConcurrentRuns: 1, experimentCellsInFlight: 1 });
    const { id } = await api.experiment.create(
      twoBeams({ configurations: [{ label: 'slow', model: simulated(1, 20) }] }),
    );
    await api.experiment.pause({ id });
    const runsAtPause = await s.prisma.run.count();
    await until(api, id, (v) => v.cells.filter((c) => c.outcome === 'running').length === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await s.prisma.run.count()).toBe(runsAtPause);
    expect((await api.experiment.byId({ id })).status).toBe('paused');
    expect((await refusal(api.experiment.pause({ id }))).code).toBe('CONFLICT');

    await api.experiment.resume({ id });
    await until(api, id, (v) => v.progress.done >= runsAtPause + 1);
    await api.experiment.abort({ id });
    const view = await until(api, id, (v) => v.cells.every((c) => c.outcome !== 'running' && c.outcome !== 'queued'));
    expect(view.status).toBe('aborted');
    expect(view.stopReason).toBe('aborted');
    expect(view.cells.some((c) => c.outcome === 'skipped')).toBe(true);
    expect(view.cells.filter((c) => c.runId === null).every((c) => c.outcome === 'skipped')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await s.prisma.run.count()).toBe(view.cells.filter((c) => c.runId !== null).length);
  });

  it('never lets its runs spend past its cost cap together, and stops starting cells when it is spent', async () => {
    const { s, api } = await setup({ maxConcurrentRuns: 2 });
    // history that says these configurations cost a tenth of what they do: the estimate fits a cap the runs do not
    const first = await api.experiment.create(twoBeams());
    const full = await until(api, first.id, finished);
    const fullCost = full.progress.costUsd;
    await s.prisma.run.updateMany({ data: { cost: fullCost / 8 / 10 } });
    const estimate = await api.experiment.estimate(twoBeams());
    expect(estimate.basis).toMatch(/earlier run/);
    const cap = fullCost / 2;
    expect(estimate.estimatedCostUsd!).toBeLessThan(cap);

    const { id } = await api.experiment.create(twoBeams({ costCapUsd: cap }));
    const view = await until(api, id, finished);
    expect(view.stopReason).toBe('cost-cap');
    // a run may stop exactly at the cap; the view sums the runs' costs in another order than the runs kept their
    // spend, so allow the last bit of a double (a call here costs about 1e-5 dollars: an overrun is far larger)
    expect(view.progress.costUsd).toBeLessThanOrEqual(cap * (1 + 1e-12));
    expect(view.progress.costUsd).toBeGreaterThan(0);
    expect(view.cells.some((c) => c.outcome === 'skipped')).toBe(true);
    expect(view.configurations.reduce((sum, c) => sum + c.costUsd, 0)).toBeCloseTo(view.progress.costUsd, 10);
    // each run was capped at what the cap left when it started
    for (const cell of view.cells.filter((c) => c.runId)) {
      expect((await api.run.byId({ id: cell.runId! })).config.maxCostUsd).toBeLessThanOrEqual(cap);
    }
  });

  it('keeps every finished cell through a crash and runs the rest after the restart', async () => {
    const first = await testServices.open(backend, {
      resumeMode: 'auto',
      maxConcurrentRuns: 1,
      experimentCellsInFlight: 1,
    });
    first.experiments.start();
    const api = createCaller(testContext(first));
    const { id } = await api.experiment.create(twoBeams({ configurations: [{ label: 'b', model: simulated(1, 5) }] }));
    await until(api, id, (v) => v.progress.done >= 2);
    // the process dies: nothing of it goes on (its feed in flight ends first, as its connections would with it)
    first.experiments.stop();
    await first.experiments.settled();
    await first.manager.crash();
    const doneBefore = (await api.experiment.byId({ id })).cells.filter(
      (c) => c.outcome === 'solved' || c.outcome === 'failed',
    );

    const second = testServices.track(
      first.restart({ resumeMode: 'auto', maxConcurrentRuns: 1, experimentCellsInFlight: 1 }),
    );
    await second.manager.recover();
    second.experiments.start();
    const api2 = createCaller(testContext(second));
    const view = await until(api2, id, finished);
    expect(view.status).toBe('finished');
    expect(view.cells.every((c) => c.outcome === 'solved' || c.outcome === 'failed')).toBe(true);
    // the cells that had finished are the same runs, untouched
    for (const cell of doneBefore) {
      const now = view.cells.find((c) => c.item === cell.item && c.configuration === cell.configuration)!;
      expect(now.runId).toBe(cell.runId);
      expect(now.costUsd).toBe(cell.costUsd);
    }
    expect(await second.prisma.run.count()).toBe(PUZZLES.length);
  }, 60_000);
});
