// The Python client as a package: `pip install ./lib/sdk/python` works with no package index (the in-tree build
// backend needs nothing but the standard library), into a fresh venv, and the installed module streams a run to
// lib/sdk's loopback test server; so does an editable install, and the sdist it builds; the source folder is left as
// it was. One venv for the three (made once: ensurepip is slow), each test installing over the one before.
// Skipped, saying so, only where python3 has no pip at all (neither in a venv nor as python3 -m pip), or no venv.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeIngestServer, type FakeIngestServer } from '../testing';

const SOURCE = resolve('lib/sdk/python');
const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PIP_NO_INPUT: '1' };
const run = (cmd: string, args: string[], cwd?: string) => spawnSync(cmd, args, { env, cwd, encoding: 'utf8' });
// --no-index: proof that nothing is downloaded, not even a build backend
const PIP_ARGS = ['install', '--no-index', '--disable-pip-version-check', '--quiet'];

let tmp = '';
let venv = '';
/** How this machine runs pip for a venv: the venv's own (ensurepip), or python3's given --python; null: no pip. */
let pip: ((args: string[]) => ReturnType<typeof run>) | null = null;
let noPip = '';

function makeVenv(name: string): string {
  const venv = join(tmp, name);
  const withPip = run('python3', ['-m', 'venv', venv]);
  if (withPip.status !== 0) {
    const bare = run('python3', ['-m', 'venv', '--clear', '--without-pip', venv]);
    if (bare.status !== 0) throw new Error(`python3 -m venv failed: ${withPip.stderr}${bare.stderr}`);
  }
  return venv;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'arborist-py-'));
  try {
    venv = makeVenv('venv');
  } catch (error) {
    noPip = `python3 cannot make a venv to install into (${String(error).trim()})`;
    return;
  }
  if (existsSync(join(venv, 'bin', 'pip'))) {
    pip = (args) => run(join(venv, 'bin', 'python'), ['-m', 'pip', ...args]);
  } else if (run('python3', ['-m', 'pip', '--version']).status === 0) {
    // a Debian python3 without python3-venv's ensurepip: its own pip installs into the venv (pip >= 22.3)
    pip = (args) => run('python3', ['-m', 'pip', '--python', join(venv, 'bin', 'python'), ...args]);
  } else {
    noPip = 'python3 has no pip (no ensurepip for a venv, no python3 -m pip): nothing can install a package here';
  }
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let server: FakeIngestServer;
beforeEach(async () => {
  server = await startFakeIngestServer();
});
afterEach(() => server.close());

const SCRIPT = `
import sys, json, importlib.metadata
import arborist_client
from arborist_client import Arborist
run = Arborist(sys.argv[1]).start_run("installed")
run.node("root", None)
run.node("a", "root", score=0.5)
print(json.dumps({"file": arborist_client.__file__, "version": importlib.metadata.version("arborist-client"),
                  "finished": run.finish(success=True)["finished"]}))
`;

/** The script run by the venv's python, away from the source and without PYTHONPATH: only what pip installed. */
function venvPython(script: string) {
  const { PYTHONPATH: _unset, ...rest } = env;
  const child = spawn(join(venv, 'bin', 'python'), ['-', server.url], { env: rest, cwd: tmp });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(script);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
}

/** The installed module, run from a folder away from the source: imports from site-packages, streams a run. */
async function streamsFromVenv() {
  const out = await venvPython(SCRIPT);
  expect(out.stderr).toBe('');
  const result = JSON.parse(out.stdout) as { file: string; version: string; finished: boolean };
  expect(result.file).toContain(join(venv, 'lib'));
  expect(result.file).toContain('site-packages');
  expect(result).toMatchObject({ version: '0.1.0', finished: true });
  expect(server.runs.get('run1')!.items.map((i) => i.op)).toEqual(['node', 'node', 'finish']);
}

const sourceFiles = () => readdirSync(SOURCE).sort();

describe('the Python client as a package', () => {
  it('installs with pip from the folder without a package index, into a fresh venv, and streams a run', async (ctx) => {
    if (!pip) return ctx.skip(noPip);
    const before = sourceFiles();
    const installed = pip([...PIP_ARGS, SOURCE]);
    expect(installed.stderr).toBe('');
    expect(installed.status).toBe(0);
    await streamsFromVenv();
    expect(sourceFiles()).toEqual(before); // no build/, dist/ or *.egg-info left behind
  }, 120_000);

  it('installs editable (pip install -e): the venv imports the file in this folder', async (ctx) => {
    if (!pip) return ctx.skip(noPip);
    const before = sourceFiles();
    const installed = pip([...PIP_ARGS, '-e', SOURCE]);
    expect(installed.stderr).toBe('');
    expect(installed.status).toBe(0);
    const out = await venvPython(SCRIPT);
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toMatchObject({ file: join(SOURCE, 'arborist_client.py'), finished: true });
    expect(sourceFiles()).toEqual(before);
  }, 120_000);

  it('builds an sdist with the standard library alone, which pip installs the same way', async (ctx) => {
    if (!pip) return ctx.skip(noPip);
    const dist = join(tmp, 'dist');
    const built = run(
      'python3',
      ['-c', `import sys; sys.path.insert(0, "_build"); import backend; print(backend.build_sdist(sys.argv[1]))`, dist],
      SOURCE,
    );
    expect(built.stderr).toBe('');
    const name = built.stdout.trim();
    expect(name).toBe('arborist_client-0.1.0.tar.gz');
    const listed = run('tar', ['-tzf', join(dist, name)])
      .stdout.trim()
      .split('\n')
      .sort();
    expect(listed).toEqual(
      [
        'PKG-INFO',
        'README.md',
        '_build/backend.py',
        'arborist_client.py',
        'examples/tot_game24.py',
        'pyproject.toml',
      ].map((f) => `arborist_client-0.1.0/${f}`),
    );
    // Python < 3.11 has no tomllib: the backend's own reading of pyproject.toml must give the same metadata
    const withoutTomllib = run(
      'python3',
      [
        '-c',
        'import sys, json; sys.path.insert(0, "_build"); import backend; a = backend._project(); ' +
          'sys.modules["tomllib"] = None; print(json.dumps([a, backend._project()]))',
      ],
      SOURCE,
    );
    const [withIt, without] = JSON.parse(withoutTomllib.stdout) as Record<string, string>[];
    expect(without).toEqual(withIt);
    expect(withIt).toMatchObject({ name: 'arborist-client', version: '0.1.0', 'requires-python': '>=3.9' });

    const installed = pip([...PIP_ARGS, '--force-reinstall', join(dist, name)]);
    expect(installed.stderr).toBe('');
    expect(installed.status).toBe(0);
    await streamsFromVenv();
  }, 120_000);
});
