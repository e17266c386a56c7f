/**
 * Loading a goal's project: a local folder is read (never written) with dependencies, build output, binaries and
 * links left out, its tests picked by the goal's glob, and a folder over the caps refused with a clear message; the
 * goal's check names a missing project before any search starts.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProject, MAX_PROJECT_FILES, projectGoalError, readFolder } from './project';

const roots: string[] = [];
function folder(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'arborist-project-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('a local folder', () => {
  it('is read without node_modules, .git, dist, build, binary files or links, and never written', async () => {
    const root = folder({
      'src/a.ts': 'export const a = 1;\n',
      'src/a.test.ts': 'import { a } from "./a";\n',
      'test/b.spec.ts': '// spec\n',
      'node_modules/x/index.js': 'module.exports = 1;',
      '.git/HEAD': 'ref: refs/heads/main',
      'dist/a.js': 'var a;',
      'build/out.txt': 'x',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
    });
    symlinkSync('/etc/passwd', join(root, 'src/passwd.ts'));
    const before = readdirSync(root).map((name) => statSync(join(root, name)).mtimeMs);
    const project = await loadProject(`project: ${root}\ntests: test/**/*.spec.ts\nchange: rename a`);
    expect(Object.keys(project.files).sort()).toEqual(['src/a.test.ts', 'src/a.ts', 'test/b.spec.ts']);
    expect(project.tests).toEqual(['test/b.spec.ts']);
    expect(project.request).toBe('rename a');
    expect(project.bench).toBeNull();
    expect(readdirSync(root).map((name) => statSync(join(root, name)).mtimeMs)).toEqual(before);
  });

  it('takes *.test.ts at any depth when the goal names no tests', async () => {
    const root = folder({ 'a.test.ts': '', 'src/deep/b.test.ts': '', 'src/c.ts': '' });
    const project = await loadProject(`project: ${root}\nchange: x`);
    expect(project.tests.sort()).toEqual(['a.test.ts', 'src/deep/b.test.ts']);
  });

  it('is refused over the file cap, and with no test file, saying why', async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_PROJECT_FILES + 1 }, (_, i) => [`f${i}.ts`, '']));
    await expect(readFolder(folder(many))).rejects.toThrow(`more than ${MAX_PROJECT_FILES} text files`);
    const root = folder({ 'src/a.ts': '' });
    await expect(loadProject(`project: ${root}\nchange: x`)).rejects.toThrow('matches the tests glob "**/*.test.ts"');
  });
});

describe('the goal check', () => {
  it('names a missing folder, a file that is not a folder and an unknown benchmark project', () => {
    const root = folder({ 'a.ts': '' });
    expect(projectGoalError(`project: ${root}\nchange: x`)).toBeNull();
    expect(projectGoalError(`project: ${root}/nope\nchange: x`)).toBe(`the folder "${root}/nope" does not exist`);
    expect(projectGoalError(`project: ${root}/a.ts\nchange: x`)).toBe(`"${root}/a.ts" is not a folder`);
    expect(projectGoalError('project: bench/no-such-project')).toBe('there is no benchmark project "no-such-project"');
    expect(projectGoalError('project: relative/path')).toMatch(/absolute folder path/);
  });
});
