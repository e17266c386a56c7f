// An llm-reasoners MCTS tree log through the same import as the other files (importFile, which the HTTP route and
// the drop zone use), against a temporary SQLite file: told apart by its shape, stored as one finished run under its
// own tag, its stored log folding to the tree the parser built; a broken log is refused and writes nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEmptyTree, fold } from '../../engine/index';
import { parseLlmReasonersLog } from '../../formats/index';
import { importFile } from './imports';
import { listEvents } from '../run-log/events';
import { listNodes } from '../run-log/nodes';
import { servicesPerTest } from '../testing/services';

const TEN = new URL('../../formats/fixtures/llm-reasoners-mcts-10.json', import.meta.url);
const tenIterations = () => JSON.parse(readFileSync(TEN, 'utf8')) as { logs: unknown[] };

const testServices = servicesPerTest();

describe('importing an llm-reasoners log', () => {
  it('stores one finished run with the log’s nodes, its own tag and the events the parser made', async () => {
    const s = testServices.create();
    const now = new Date('2025-03-04T05:06:07.000Z');
    const { kind, runs } = await importFile(s.prisma, tenIterations(), { fileName: 'mcts.json', now });
    expect(kind).toBe('llm-reasoners');
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run).toMatchObject({
      status: 'finished',
      taskId: 'llm-reasoners',
      importTag: 'llm-reasoners:mcts.json:2025-03-04T05:06:07.000Z',
      finishReason: 'node-limit',
      success: true,
      totalNodes: 36,
    });
    const parsed = parseLlmReasonersLog(tenIterations(), { now: now.getTime() });
    if (!parsed.ok) throw new Error(parsed.error);
    const events = await listEvents(s.prisma, run?.id as string);
    expect(events.map(({ runId: _r, ...e }) => e)).toEqual(parsed.runs[0]?.events.map(({ runId: _r, ...e }) => e));
    const tree = fold(events, createEmptyTree(run?.id));
    expect(tree.external?.config.iterations).toBe(10);
    expect(await listNodes(s.prisma, run?.id as string)).toHaveLength(37);
  });

  it('refuses a log whose edge names a node it does not have, and writes nothing', async () => {
    const s = testServices.create();
    const log = tenIterations() as { logs: { edges: Record<string, { target: number }> }[] };
    (log.logs[4]?.edges['3'] as { target: number }).target = 500;
    await expect(importFile(s.prisma, log)).rejects.toThrow(
      'not a usable llm-reasoners tree log: logs[4].edges["3"].target: no node 500 in this snapshot',
    );
    expect(await s.prisma.run.count()).toBe(0);
    expect(await s.prisma.event.count()).toBe(0);
  });
});
