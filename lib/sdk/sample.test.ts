// The README's sample is a program people copy into a file of their own and run: it must run as it is written (as a
// .ts file in a project without "type": "module", where tsx compiles to CommonJS) and do what it says. Only its import
// is pointed at this folder; package.test.ts runs it verbatim against the installed package.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_NAME, readmeSample, startFakeIngestServer, TSX_IMPORT, type FakeIngestServer } from './testing';

let server: FakeIngestServer;
let dir: string;

beforeEach(async () => {
  server = await startFakeIngestServer();
  dir = await mkdtemp(join(tmpdir(), 'arborist-readme-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the README's sample", () => {
  it('runs as a .ts file of its own, streams its search and prints the run page; the solved run reads terminated', async () => {
    const sdk = join(import.meta.dirname, 'index.ts');
    const source = readmeSample().replace(`from '${PACKAGE_NAME}'`, `from ${JSON.stringify(sdk)}`);
    await writeFile(join(dir, 'search.ts'), source);
    const out = await promisify(execFile)(process.execPath, ['--import', TSX_IMPORT, 'search.ts'], {
      cwd: dir,
      env: { ...process.env, ARBORIST_SERVER: server.url },
    });

    expect(out.stdout.trim()).toBe(`${server.url}/runs/run1`);
    expect(out.stderr).toBe('');
    const run = server.runs.get('run1')!;
    expect(run.create).toMatchObject({ goal: '4 9 10 13', task: 'game24', commands: BUILTIN });
    expect(run.items.map((i) => i.op)).toEqual(['node', 'node', 'start', 'call', 'complete', 'verify', 'finish']);
    expect(run.items.at(-1)).toMatchObject({ best: 'a', success: true, verified: true, reason: 'terminated' });
  });
});

const BUILTIN = ['prune', 'pause', 'resume', 'step', 'abort'];
