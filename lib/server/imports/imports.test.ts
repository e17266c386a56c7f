// Export and import against a temporary SQLite file: a run exported and imported again is the same run under a new
// id; a log cut short comes back interrupted and resumes to the same end; a ToT log becomes one run per game in one
// transaction; and a file that is wrong is refused with its reason, writing nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { createEmptyTree, fold } from '../../engine/index';
import type { RunExport, TotGame } from '../../formats/index';
import { exportRun, importFile, importRun, importTotLog, parseJsonText } from './imports';
import { sweepStagedImports } from '../run-log/index';
import { appendEvents, getEvent, listEvents } from '../run-log/events';
import { testContext } from '../testing/context';
import { createCaller } from '../trpc/routers/root';
import { listNodes } from '../run-log/nodes';
import type { RunRecord } from '../../contract/run';
import { findForks, findRunsByStatus, getRun, listImportTags, listRuns, summarizeRuns } from '../repositories/runs';
import { clearImportJob, createRun } from '../run-log/run-rows';
import { latestTreeText } from '../run-log/snapshots';
import { summarizeTree } from '../run-log/summary';
import { MAX_IMPORT_MS, runImportJob } from './import-jobs';
import { servicesPerTest, type TestServices } from '../testing/services';

const SAMPLE = new URL('../../formats/fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);
const sampleLog = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];

const testServices = servicesPerTest();

function setup() {
  const s = testServices.create();
  return s;
}

async function finishedRun(s: TestServices, seed = 3): Promise<RunRecord> {
  const run = await s.manager.create({
    taskId: 'game24',
    goal: '4 9 10 13',
    model: { provider: 'simulated', seed, latencyMs: 0 },
  });
  await s.manager.settled(run.id);
  return (await getRun(s.prisma, run.id)) as RunRecord;
}

async function counts(s: TestServices) {
  return {
    runs: await s.prisma.run.count(),
    events: await s.prisma.event.count(),
    nodes: await s.prisma.node.count(),
  };
}

const stripRunId = (events: ExplorationEvent[]) => events.map(({ runId: _runId, ...rest }) => rest);

/** The row fields an import must reproduce (the id, times of the row itself and the tag are its own). */
function comparable(run: RunRecord) {
  const { id: _id, updatedAt: _u, importTag: _t, error: _e, ...rest } = run;
  return rest;
}

describe('exportRun then importRun', () => {
  it('gives the same run under a new id: events, nodes and the summary the manager wrote', async () => {
    const s = setup();
    const original = await finishedRun(s);
    const file = (await exportRun(s.prisma, original.id)) as RunExport;
    expect(file).toMatchObject({ format: 'arborist.run', version: 1, run: { id: original.id, status: 'finished' } });

    const imported = await importRun(s.prisma, JSON.parse(JSON.stringify(file)));
    expect(imported.id).not.toBe(original.id);
    expect(imported.importTag).toBe(`arborist.run:${original.id}`);
    expect(comparable(imported)).toEqual(comparable(original));

    const before = await listEvents(s.prisma, original.id);
    const after = await listEvents(s.prisma, imported.id);
    expect(after.every((e) => e.runId === imported.id)).toBe(true);
    expect(stripRunId(after)).toEqual(stripRunId(before));
    const nodes = (id: string) => listNodes(s.prisma, id).then((ns) => ns.map(({ runId: _r, ...n }) => n));
    expect(await nodes(imported.id)).toEqual(await nodes(original.id));
    // its latest tree is stored with it: the page draws it before the history
    const snapshot = await s.prisma.runSnapshot.findUnique({ where: { runId: imported.id }, select: { seq: true } });
    expect(snapshot?.seq).toBe(after.length);

    // and once more: the export of the import is the original's file but for the ids and the tag
    const again = (await exportRun(s.prisma, imported.id)) as RunExport;
    expect({ ...again.run, id: '', importTag: null }).toEqual({ ...file.run, id: '', importTag: null });
    expect(stripRunId(again.events)).toEqual(stripRunId(file.events));
  });

  it('writes the summary the run manager writes (one shared summarizeTree)', async () => {
    const s = setup();
    const original = await finishedRun(s, 5);
    const tree = fold(await listEvents(s.prisma, original.id), createEmptyTree(original.id));
    expect(original).toMatchObject(summarizeTree(tree));
  });

  it('keeps a tag it is given, and the file’s own tag over a default', async () => {
    const s = setup();
    const original = await finishedRun(s);
    const file = JSON.parse(JSON.stringify(await exportRun(s.prisma, original.id))) as RunExport;
    expect((await importRun(s.prisma, file, { importTag: 'mine' })).importTag).toBe('mine');
    file.run.importTag = 'tot-log:x.json:2025';
    expect((await importRun(s.prisma, file)).importTag).toBe('tot-log:x.json:2025');
  });

  it('stores a log without run.finished as interrupted, and it resumes on request to the same end', async () => {
    const s = setup();
    const original = await finishedRun(s);
    const file = JSON.parse(JSON.stringify(await exportRun(s.prisma, original.id))) as RunExport;
    // a run exported while it went on: its log so far, cut at the end of a step (events come in whole groups)
    const cut = file.events.findIndex((e) => e.type === 'node.expanded' && e.seq > 40) + 1;
    file.events = file.events.slice(0, cut);
    file.run.status = 'running';
    file.run.finishedAt = null;
    file.run.finishReason = null;

    const imported = await importRun(s.prisma, file);
    expect(imported).toMatchObject({ status: 'interrupted', output: null, lastSeq: cut, finishedAt: null });
    expect(imported.totalNodes).toBeGreaterThan(0);

    await s.manager.command(imported.id, { type: 'resume', actor: 'test' });
    await s.manager.settled(imported.id);
    const resumed = (await getRun(s.prisma, imported.id)) as RunRecord;
    expect(resumed).toMatchObject({
      status: 'finished',
      output: original.output,
      verified: original.verified,
      exploredNodes: original.exploredNodes,
    });
  });
});

describe('importTotLog', () => {
  it('stores one finished run per game under one tag, with the log’s tokens and cost', async () => {
    const s = setup();
    const now = new Date('2025-03-04T05:06:07.000Z');
    const runs = await importTotLog(s.prisma, sampleLog(), { fileName: 'sample.json', now });
    expect(runs.map((r) => r.goal)).toEqual(['4 5 6 10', '1 2 4 7', '2 5 8 11', '3 4 4 13', '6 7 8 9']);
    expect(new Set(runs.map((r) => r.importTag))).toEqual(new Set(['tot-log:sample.json:2025-03-04T05:06:07.000Z']));
    expect(runs.map((r) => r.verified)).toEqual([true, true, false, true, true]);
    expect(runs[0]).toMatchObject({
      status: 'finished',
      taskId: 'game24',
      modelId: 'gpt-4',
      modelLabel: 'gpt-4 (imported log)',
      finishReason: 'frontier-empty',
      output: 'Answer: (4 * 5) + (10 - 6) = 24',
      success: true,
      exploredNodes: 20,
      totalNodes: 80,
      cost: 1.40319,
      createdAt: now,
      startedAt: now,
      finishedAt: now,
      stats: { tokenUsage: { inputTokens: 28451, outputTokens: 9161, totalTokens: 37612 } },
    });
    // a millisecond apart: the runs list, newest first, keeps the file's order
    expect(runs.map((r) => r.createdAt.getTime() - now.getTime())).toEqual([0, 1, 2, 3, 4]);
    const total = runs.reduce((sum, r) => sum + r.cost, 0);
    expect(total).toBeCloseTo(7.03659, 9);
    expect((await listNodes(s.prisma, runs[0]?.id as string)).length).toBe(81);
    expect(await counts(s)).toMatchObject({ runs: 5 });
  });

  it('can be exported, re-imported identically, and forked from any node', async () => {
    const s = setup();
    const [first] = await importTotLog(s.prisma, sampleLog());
    const file = JSON.parse(JSON.stringify(await exportRun(s.prisma, first?.id as string))) as RunExport;
    const again = await importRun(s.prisma, file);
    expect(comparable(again)).toEqual(comparable(first as RunRecord));
    expect(again.importTag).toBe(first?.importTag);
    expect(stripRunId(await listEvents(s.prisma, again.id))).toEqual(stripRunId(file.events));

    // its config is a valid engine config (branchFactor capped at 20): a fork runs on it with the offline model
    const { run: fork } = await s.manager.fork({
      runId: again.id,
      nodeId: 'n1',
      model: { provider: 'simulated', seed: 1, latencyMs: 0 },
    });
    await s.manager.settled(fork.id);
    expect((await getRun(s.prisma, fork.id))?.status).toBe('finished');
  });

  it('is all or nothing: one bad game writes no run at all', async () => {
    const s = setup();
    await finishedRun(s);
    const before = await counts(s);
    const log = sampleLog();
    (log[4]?.steps[3] as TotGame['steps'][number]).values.pop();
    await expect(importTotLog(s.prisma, log)).rejects.toThrow(
      'not a usable Tree-of-Thoughts log: [4].steps[3].values: 13 values for 14 candidates',
    );
    expect(await counts(s)).toEqual(before);
  });
});

describe('a wrong file is refused with its reason and writes nothing', () => {
  it('for JSON that is cut short, an export that is wrong, and a value that is neither format', async () => {
    const s = setup();
    const original = await finishedRun(s);
    const text = JSON.stringify(await exportRun(s.prisma, original.id));
    const before = await counts(s);

    const refused = async (attempt: () => Promise<unknown>) => {
      try {
        await attempt();
        return 'accepted';
      } catch (error) {
        expect((error as Error).name).toBe('InputError'); // BAD_REQUEST through tRPC, 400 over HTTP
        return (error as Error).message;
      }
    };
    expect(await refused(async () => parseJsonText(text.slice(0, 1234)))).toMatch(/^the file is not JSON: .*1234/);
    expect(await refused(async () => parseJsonText(''))).toMatch(/^the file is not JSON: Unexpected end of JSON input/);

    const gap = JSON.parse(text) as RunExport;
    (gap.events[41] as ExplorationEvent).seq = 44;
    expect(await refused(() => importRun(s.prisma, gap))).toBe('events[41].seq: expected 42, got 44');
    expect(await refused(() => importFile(s.prisma, { hello: 'world' }))).toBe(
      "not an Arborist export: format must be 'arborist.run'",
    );
    expect(await refused(() => importFile(s.prisma, 'text'))).toMatch(/^not an Arborist export/);
    expect(await refused(() => importFile(s.prisma, [{ idx: 1 }]))).toMatch(
      /^not a Tree-of-Thoughts log: \[0\]\.steps/,
    );
    expect(await counts(s)).toEqual(before);
  });

  it('and a failure while writing rolls the whole import back', async () => {
    const s = setup();
    const before = await counts(s);
    // the third game's run id collides with the first's: the transaction fails half way and nothing stays
    const ids = ['a', 'b', 'a', 'c', 'd'];
    await expect(importTotLog(s.prisma, sampleLog(), { newId: () => ids.shift() as string })).rejects.toThrow();
    expect(await counts(s)).toEqual(before);
  });
});

describe('staged imports', () => {
  it('are written in chunks that nobody sees, then appear all at once with their owner', async () => {
    const s = setup();
    // half way: how many of the job's runs are staged, and how many runs the list shows
    const seen: { staged: number; listed: number; summary: number }[] = [];
    const afterChunk = async () => {
      seen.push({
        staged: await s.prisma.run.count({ where: { importJobId: 'job-1' } }),
        listed: (await listRuns(s.prisma, { limit: 50 })).items.length,
        summary: (await summarizeRuns(s.prisma, {})).runs,
      });
    };
    const runs = await importTotLog(s.prisma, sampleLog(), {
      jobId: 'job-1',
      ownerId: 'u1',
      chunkRows: 20,
      afterChunk,
    });
    expect(runs).toHaveLength(5);
    // many chunks, the last with all five runs staged, and the list never showed one of them
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.at(-1)).toEqual({ staged: 5, listed: 0, summary: 0 });
    expect(seen.filter((half) => half.listed > 0 || half.summary > 0)).toEqual([]);
    const rows = await s.prisma.run.findMany({ select: { ownerId: true, importJobId: true } });
    expect(rows).toEqual(Array.from({ length: 5 }, () => ({ ownerId: 'u1', importJobId: null })));
    expect((await listRuns(s.prisma, { limit: 50 })).items).toHaveLength(5);
  });

  it('is invisible to every read while staged: get, list, summary, tags, forks, runs by status, snapshot, event', async () => {
    const s = setup();
    const source = await finishedRun(s);
    const file = (await exportRun(s.prisma, source.id)) as RunExport;
    const before = {
      list: (await listRuns(s.prisma, { limit: 50 })).items.map((r) => r.id),
      summary: await summarizeRuns(s.prisma, {}),
      tags: await listImportTags(s.prisma),
      finished: (await findRunsByStatus(s.prisma, ['finished'])).map((r) => r.id),
    };
    // stage a copy by hand, as an import half way through leaves it
    await createRun(s.prisma, {
      id: 'staged',
      taskId: file.run.taskId,
      goal: file.run.goal,
      modelId: file.run.modelId,
      modelLabel: file.run.modelLabel,
      config: file.run.config,
      status: 'finished',
      importTag: 'half-way',
      parentRunId: source.id,
      importJobId: 'job-2',
    });
    await appendEvents(
      s.prisma,
      'staged',
      file.events.map((e) => ({ ...e, runId: 'staged' })),
    );
    expect(await getRun(s.prisma, 'staged')).toBeNull();
    expect((await listRuns(s.prisma, { limit: 50 })).items.map((r) => r.id)).toEqual(before.list);
    expect((await listRuns(s.prisma, { limit: 50, q: file.run.goal })).items.map((r) => r.id)).toEqual([source.id]);
    expect(await summarizeRuns(s.prisma, {})).toEqual(before.summary);
    expect(await listImportTags(s.prisma)).toEqual(before.tags);
    expect(await findForks(s.prisma, source.id)).toEqual([]);
    expect((await findRunsByStatus(s.prisma, ['finished'])).map((r) => r.id)).toEqual(before.finished);
    expect(await latestTreeText(s.prisma, 'staged')).toBeNull();
    // the API's one-event read checks the run first (runFor), which a staged run does not pass
    await expect(createCaller(testContext(s)).run.event({ id: 'staged', seq: 1 })).rejects.toThrow(/no run staged/);
    expect(await exportRun(s.prisma, 'staged')).toBeNull();

    expect(await clearImportJob(s.prisma, 'job-2')).toBe(1);
    expect((await getRun(s.prisma, 'staged'))?.importTag).toBe('half-way');
    expect(await listImportTags(s.prisma)).toEqual([{ tag: 'half-way', runs: 1 }]);
    expect((await findForks(s.prisma, source.id)).map((r) => r.id)).toEqual(['staged']);
    expect((await getEvent(s.prisma, 'staged', 1))?.type).toBe(file.events[0]?.type);
  });

  it('a failure after chunks were committed deletes them: no run, event or node row stays', async () => {
    const s = setup();
    await finishedRun(s);
    const before = await counts(s);
    // the fourth game's run id collides with the first's, after several small chunks were committed
    const ids = ['a', 'b', 'c', 'a', 'e'];
    await expect(
      importTotLog(s.prisma, sampleLog(), { newId: () => ids.shift() as string, chunkRows: 20 }),
    ).rejects.toThrow();
    expect(await counts(s)).toEqual(before);
    expect(await s.prisma.runSnapshot.count({ where: { runId: { in: ['a', 'b', 'c'] } } })).toBe(0);
  });

  it('the sweep deletes runs an unfinished import left staged once older than MAX_IMPORT_MS, and nothing else', async () => {
    const s = setup();
    const kept = await finishedRun(s);
    const before = await counts(s);
    await importTotLog(s.prisma, sampleLog(), { jobId: 'killed', chunkRows: 20 });
    // as if the process died before the swap-in: mark the import's runs staged again
    await s.prisma.run.updateMany({ where: { id: { not: kept.id } }, data: { importJobId: 'killed' } });
    expect(await sweepStagedImports(s.prisma, MAX_IMPORT_MS)).toBe(0);
    expect(await sweepStagedImports(s.prisma, MAX_IMPORT_MS, new Date(Date.now() + MAX_IMPORT_MS + 1_000))).toBe(5);
    expect(await counts(s)).toEqual(before);
    expect((await getRun(s.prisma, kept.id))?.status).toBe('finished');
  });
});

// PostgreSQL: the same staged chunks and swap-in, and the worker thread opening its own client on the database's URL.
describe('imports on PostgreSQL', () => {
  it('are written in chunks nobody sees, then swapped in; a failing one writes nothing', async () => {
    const s = await testServices.open('postgresql');
    const listed: number[] = [];
    const runs = await importTotLog(s.prisma, sampleLog(), {
      jobId: 'job-pg',
      chunkRows: 20,
      afterChunk: async () => {
        listed.push((await listRuns(s.prisma, { limit: 50 })).items.length);
      },
    });
    expect(runs).toHaveLength(5);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.every((n) => n === 0)).toBe(true);
    expect((await listRuns(s.prisma, { limit: 50 })).items).toHaveLength(5);

    const before = await counts(s);
    const ids = ['a', 'b', 'c', 'a', 'e'];
    await expect(
      importTotLog(s.prisma, sampleLog(), { newId: () => ids.shift() as string, chunkRows: 20 }),
    ).rejects.toThrow();
    expect(await counts(s)).toEqual(before);
  });

  it('runs in its worker thread on the database URL: the runs appear, and a wrong file writes nothing', async () => {
    const s = await testServices.open('postgresql');
    const job = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      return runImportJob({
        prisma: s.prisma,
        database: s.file,
        bytes: bytes.buffer as ArrayBuffer,
        byteLength: bytes.byteLength,
        importTag: null,
        fileName: 'sample.json',
        ownerId: 'u1',
      });
    };
    const result = await job(readFileSync(SAMPLE, 'utf8'));
    expect(result).toMatchObject({ ok: true, kind: 'tot-log' });
    const ids = result.ok ? result.runs.map((r) => r.id) : [];
    expect(ids).toHaveLength(5);
    const listed = (await listRuns(s.prisma, { limit: 50 })).items;
    expect(listed.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(listed.every((r) => r.ownerId === 'u1' && r.status === 'finished')).toBe(true);

    const before = await counts(s);
    expect(await job('{"run": ')).toMatchObject({ ok: false, input: true });
    expect(await counts(s)).toEqual(before);
  });
});
