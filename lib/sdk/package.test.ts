// The SDK as a user gets it: `npm pack` here, then a fresh project outside the repository installs the tarball (no
// registry needed: the package has no dependencies), imports it from an .mjs file with node and from CommonJS,
// type-checks TypeScript against its declarations with tsc (strict, node16 resolution, no zod anywhere), and runs the
// README's sample verbatim. Slow (a build and an install): about half a minute.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME, readmeSample, startFakeIngestServer, TSX_IMPORT, type FakeIngestServer } from './testing';

const run = promisify(execFile);
const sdkDir = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const nodeTypes = join(createRequire(import.meta.url).resolve('@types/node/package.json'), '..', '..');

let tmp: string;
let project: string;
let tarball: string;
let server: FakeIngestServer;

const node = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, args, { cwd: project, env: { ...process.env, ...env } });

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'arborist-sdk-package-'));
  project = join(tmp, 'project');
  await mkdir(project);
  await run('npm', ['pack', '--pack-destination', tmp], { cwd: sdkDir });
  const packed = (await readdir(tmp)).filter((f) => f.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  tarball = join(tmp, packed[0]!);
  await run('npm', ['init', '-y'], { cwd: project });
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
  server = await startFakeIngestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the SDK as an npm package', { timeout: 60_000 }, () => {
  it('packs only the built files, with no dependencies, and leaves no dist behind in the repository', async () => {
    expect(tarball).toMatch(/arborist-sdk-0\.1\.0\.tgz$/);
    const { stdout } = await run('tar', ['tzf', tarball]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([
      'package/README.md',
      'package/dist/index.cjs',
      'package/dist/index.d.cts',
      'package/dist/index.d.ts',
      'package/dist/index.js',
      'package/package.json',
    ]);
    const installed = join(project, 'node_modules', ...PACKAGE_NAME.split('/'));
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('peerDependencies');
    // the declarations stand alone: nothing outside the package, no zod
    const types = await readFile(join(installed, 'dist', 'index.d.ts'), 'utf8');
    expect(types).not.toMatch(/from ['"]|import\(|zod/);
    expect(existsSync(join(sdkDir, 'dist'))).toBe(false);
  });

  it('imports from an .mjs file and from CommonJS with node, and streams a run', async () => {
    await writeFile(
      join(project, 'check.mjs'),
      `import { Arborist, BUILTIN_COMMANDS } from '${PACKAGE_NAME}';
const run = new Arborist({ server: process.env.ARBORIST_SERVER }).startRun({ goal: 'esm', commands: BUILTIN_COMMANDS });
run.node('root', null);
const summary = await run.finish({ success: true });
console.log(JSON.stringify({ finished: summary.finished, sent: summary.stats.sent }));
`,
    );
    await writeFile(
      join(project, 'check.cjs'),
      `const { Arborist } = require('${PACKAGE_NAME}');
new Arborist({ server: process.env.ARBORIST_SERVER }).startRun({ goal: 'cjs' }).finish()
  .then((summary) => console.log(JSON.stringify({ finished: summary.finished })));
`,
    );
    const esm = await node(['check.mjs'], { ARBORIST_SERVER: server.url });
    const cjs = await node(['check.cjs'], { ARBORIST_SERVER: server.url });
    expect(JSON.parse(esm.stdout)).toEqual({ finished: true, sent: 2 });
    expect(JSON.parse(cjs.stdout)).toEqual({ finished: true });
    expect([...server.runs.values()].map((r) => r.create.goal).sort()).toEqual(['cjs', 'esm']);
  });

  it('type-checks TypeScript against the declarations (strict, node16 resolution, ESM and CommonJS), catching misuse', async () => {
    const use = (
      flavour: string,
    ) => `import { Arborist, type ArboristWarning, type FinishOptions, type IngestCommand } from '${PACKAGE_NAME}';

const warnings: ArboristWarning[] = [];
const run = new Arborist({ server: 'http://127.0.0.1:3000', onWarning: (w) => warnings.push(w) }).startRun({
  goal: '${flavour}',
  commands: ['pause', 'resume'],
  onCommand: (command: IngestCommand) => (command.kind === 'expand' ? { refused: 'no' } : undefined),
});
run.node('a', null, { score: 0.5, metadata: { left: '4 4 10', n: 3 }, action: { type: 'response', content: 'x' } });
run.event('node.failed', { nodeId: 'a', reason: 'bad' });
const reason: FinishOptions['reason'] = 'terminated';
export const done: Promise<boolean> = run.finish({ reason }).then((summary) => summary.finished);

// @ts-expect-error a score is a number
run.node('b', 'a', { score: 'high' });
// @ts-expect-error not a finish reason
run.finish({ reason: 'solved' });
// @ts-expect-error not a command
new Arborist({ server: '' }).startRun({ goal: 'g', commands: ['fly'] });
// @ts-expect-error an event's payload is checked by its type
run.event('node.failed', { nodeId: 'a' });
`;
    await writeFile(join(project, 'esm.mts'), use('esm'));
    await writeFile(join(project, 'cjs.cts'), use('cjs'));
    await writeFile(join(project, 'sample.ts'), readmeSample());
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          module: 'node16',
          moduleResolution: 'node16',
          // @types/node for the sample's process.env, as a Node project has it; from the repository (offline)
          typeRoots: [nodeTypes],
          types: ['node'],
        },
        files: ['esm.mts', 'cjs.cts', 'sample.ts'],
      }),
    );
    const checked = await node([tsc, '-p', 'tsconfig.json']).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe('');
  });

  it("runs the README's sample verbatim as a .ts file of its own, printing the run's page", async () => {
    await writeFile(join(project, 'search.ts'), readmeSample());
    const out = await node(['--import', TSX_IMPORT, 'search.ts'], { ARBORIST_SERVER: server.url });
    const created = [...server.runs.values()].find((r) => r.create.goal === '4 9 10 13')!;
    expect(out.stdout.trim()).toBe(`${server.url}/runs/${created.id}`);
    expect(created.items.at(-1)).toMatchObject({ op: 'finish', success: true, reason: 'terminated' });
  });
});
