// The Tree-of-Thoughts crosswords DFS log through the server's import (imports.ts) against a temporary SQLite file:
// told apart from the other formats by shape, one finished run per game under one tag, its nodes projected, and
// all or nothing when a game is wrong. The format itself is tested in lib/formats/tot-crosswords.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importBytes, importFile } from './imports';
import { listNodes } from '../run-log/nodes';
import { servicesPerTest } from '../testing/services';

const SAMPLE = new URL('../../formats/fixtures/tot-crosswords-dfs-sample.json', import.meta.url);
type Step = { info: { r_word: number } };
const sampleLog = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as Step[][];

const testServices = servicesPerTest();

describe('importing the ToT crosswords DFS log', () => {
  it('stores one finished run per game, the second solved, under one tag', async () => {
    const s = testServices.create();
    const now = new Date('2025-03-04T05:06:07.000Z');
    const { kind, runs } = await importBytes(s.prisma, readFileSync(SAMPLE), { fileName: 'xw.json', now });
    expect(kind).toBe('tot-crosswords');
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => [r.taskId, r.status, r.finishReason, r.success])).toEqual([
      ['crosswords', 'finished', 'node-limit', false],
      ['crosswords', 'finished', 'node-limit', true],
    ]);
    expect(runs[1]?.output).toBe('AREFY\nREVIE\nIGALA\nSEDER\nETERN');
    expect(new Set(runs.map((r) => r.importTag))).toEqual(new Set(['tot-log:xw.json:2025-03-04T05:06:07.000Z']));
    // the root and the 100 logged steps
    expect(await listNodes(s.prisma, runs[0]?.id as string)).toHaveLength(101);
  });

  it('writes nothing when one game is wrong', async () => {
    const s = testServices.create();
    const log = sampleLog();
    ((log[1] as Step[])[7] as Step).info.r_word = 0.9;
    await expect(importFile(s.prisma, log)).rejects.toThrow(/^not a usable Tree-of-Thoughts crosswords log: \[1\]: /);
    expect(await s.prisma.run.count()).toBe(0);
  });
});
