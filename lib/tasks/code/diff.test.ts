/**
 * Diff apply and combine: what a model's diff does to a project in memory, and that the combined patch is one real
 * `git apply` accepts and that gives the same files (git runs in a temp folder, removed afterwards).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyDiff, applyDiffs, diffProjects } from './diff';
import type { ProjectFiles } from './types';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function writeProject(files: ProjectFiles): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arborist-diff-test-'));
  folders.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

function readProject(root: string): ProjectFiles {
  const files: ProjectFiles = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'change.patch') continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

/** Real `git apply --check` then `git apply` of `patch` on a fresh copy of `files`; the files afterwards. */
function gitApply(files: ProjectFiles, patch: string): ProjectFiles {
  const root = writeProject(files);
  fs.writeFileSync(path.join(root, 'change.patch'), patch);
  execFileSync('git', ['apply', '--check', 'change.patch'], { cwd: root, stdio: 'pipe' });
  execFileSync('git', ['apply', 'change.patch'], { cwd: root, stdio: 'pipe' });
  return readProject(root);
}

const range = [
  'export function range(start: number, end: number): number[] {',
  '  const out: number[] = [];',
  '  for (let i = start; i < end; i++) out.push(i);',
  '  return out;',
  '}',
  '',
  'export function sum(values: number[]): number {',
  '  let total = 0;',
  '  for (const v of values) total += v;',
  '  return total;',
  '}',
  '',
  'export function mean(values: number[]): number {',
  '  return sum(values) / values.length;',
  '}',
  '',
].join('\n');

const project: ProjectFiles = {
  'src/range.ts': range,
  'src/old.ts': 'export const old = 1;\n',
  'README.md': 'no newline at the end',
};

/** A hand-written, model-style diff: plain ---/+++ headers with a/ b/ prefixes, two hunks, a new and a deleted file. */
const modelDiff = `--- a/src/range.ts
+++ b/src/range.ts
@@ -1,4 +1,4 @@
-export function range(start: number, end: number): number[] {
+export function range(start: number, end: number, step = 1): number[] {
   const out: number[] = [];
-  for (let i = start; i < end; i++) out.push(i);
+  for (let i = start; i < end; i += step) out.push(i);
   return out;
@@ -13,3 +13,4 @@
 export function mean(values: number[]): number {
+  if (values.length === 0) return 0;
   return sum(values) / values.length;
 }
--- /dev/null
+++ b/src/step.ts
@@ -0,0 +1,2 @@
+import { range } from './range';
+export const evens = range(0, 10, 2);
--- a/src/old.ts
+++ /dev/null
@@ -1 +0,0 @@
-export const old = 1;
`;

describe('applyDiff', () => {
  it('applies a multi-file diff: two hunks, a new file and a deleted one', () => {
    const result = applyDiff(project, modelDiff);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.files).sort()).toEqual(['README.md', 'src/range.ts', 'src/step.ts']);
    expect(result.files['src/range.ts']).toContain('i += step');
    expect(result.files['src/range.ts']).toContain('if (values.length === 0) return 0;');
    expect(result.files['src/step.ts']).toBe(
      "import { range } from './range';\nexport const evens = range(0, 10, 2);\n",
    );
    // the same diff through real git gives the same files
    expect(gitApply(project, modelDiff)).toEqual(result.files);
  });

  it('never mutates its input', () => {
    const frozen = Object.freeze({ ...project });
    const result = applyDiff(frozen, modelDiff);
    expect(result.ok).toBe(true);
    expect(frozen).toEqual(project);
  });

  it('names the file and the hunk that does not match, with no fuzz', () => {
    const edited = { ...project, 'src/range.ts': range.replace('return sum(values) / values.length;', 'return 0;') };
    expect(applyDiff(edited, modelDiff)).toEqual({
      ok: false,
      reason: 'src/range.ts: hunk 2 (at line 13) does not match',
    });
    // one changed context line is enough to refuse
    const context = { ...project, 'src/range.ts': range.replace('  return out;', '  return out; // done') };
    expect(applyDiff(context, modelDiff)).toEqual({
      ok: false,
      reason: 'src/range.ts: hunk 1 (at line 1) does not match',
    });
  });

  it('finds a hunk whose context moved, as git apply does, but not one git anchors to the start', () => {
    const moved = {
      ...project,
      'src/range.ts': range.replace('\nexport function sum', '\n// a comment\n// another\nexport function sum'),
    };
    const result = applyDiff(moved, modelDiff);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.files).toEqual(gitApply(moved, modelDiff));
    // hunk 1 starts at line 1: git (and we) refuse it once lines come before it
    const above = { ...project, 'src/range.ts': '// a header comment\n' + range };
    expect(applyDiff(above, modelDiff)).toEqual({
      ok: false,
      reason: 'src/range.ts: hunk 1 (at line 1) does not match',
    });
    expect(() => gitApply(above, modelDiff)).toThrow(/patch does not apply/);
  });

  it('says so when the text is not a diff, or a file is missing or already there', () => {
    expect(applyDiff(project, 'I changed range() to take a step.')).toEqual({
      ok: false,
      reason: 'not a unified diff: no "--- a/file" / "+++ b/file" headers',
    });
    expect(applyDiff(project, '')).toEqual({ ok: false, reason: 'the diff is empty' });
    const broken = applyDiff(project, '--- a/src/old.ts\n+++ b/src/old.ts\n@@ -1 +1 @@\n-export const old = 1;\n');
    expect(broken).toMatchObject({ ok: false, reason: expect.stringMatching(/^not a unified diff: Hunk at line 3/) });
    const missing = modelDiff.replaceAll('src/range.ts', 'src/ranges.ts');
    expect(applyDiff(project, missing)).toEqual({ ok: false, reason: 'src/ranges.ts: does not exist' });
    expect(applyDiff({ ...project, 'src/step.ts': 'x\n' }, modelDiff)).toEqual({
      ok: false,
      reason: 'src/step.ts: is created by the diff but already exists',
    });
  });

  it('refuses paths that leave the project', () => {
    for (const name of ['../../etc/passwd', '/etc/passwd', 'src/../../x.ts']) {
      const diff = `--- /dev/null\n+++ ${name.startsWith('/') ? name : `b/${name}`}\n@@ -0,0 +1 @@\n+x\n`;
      expect(applyDiff(project, diff)).toMatchObject({ ok: false, reason: expect.stringContaining('outside') });
    }
  });

  it('reads git-style diffs: diff --git headers, new file mode, renames, "\\ No newline at end of file"', () => {
    const diff = `diff --git a/README.md b/README.md
index 1111111..2222222 100644
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-no newline at the end
\\ No newline at end of file
+now with a newline
diff --git a/src/old.ts b/src/older.ts
similarity index 100%
rename from src/old.ts
rename to src/older.ts
`;
    const result = applyDiff(project, diff);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.files['README.md']).toBe('now with a newline\n');
    expect(result.files['src/older.ts']).toBe('export const old = 1;\n');
    expect(result.files['src/old.ts']).toBeUndefined();
    expect(gitApply(project, diff)).toEqual(result.files);
  });
});

describe('diffProjects', () => {
  const after: ProjectFiles = {
    'src/range.ts': range.replace('i++', 'i += 1') + 'export const last = 1;',
    'src/new.ts': 'export const fresh = true; // no newline',
    'src/empty.ts': '',
    'README.md': 'no newline at the end\nbut a second line\n',
  };

  it('writes one git-style patch, files sorted, that git apply accepts and that gives the same files', () => {
    const patch = diffProjects(project, after);
    expect(patch.startsWith('diff --git a/README.md b/README.md\n')).toBe(true);
    const headers = patch.split('\n').filter((line) => line.startsWith('diff --git'));
    expect(headers).toEqual([
      'diff --git a/README.md b/README.md',
      'diff --git a/src/empty.ts b/src/empty.ts',
      'diff --git a/src/new.ts b/src/new.ts',
      'diff --git a/src/old.ts b/src/old.ts',
      'diff --git a/src/range.ts b/src/range.ts',
    ]);
    expect(patch).toContain(
      'diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.ts\n',
    );
    expect(patch).toContain('deleted file mode 100644\n--- a/src/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n');
    expect(patch).toContain('\\ No newline at end of file');
    expect(gitApply(project, patch)).toEqual(after);
    expect(applyDiff(project, patch)).toEqual({ ok: true, files: after });
  });

  it('is empty when nothing changed', () => {
    expect(diffProjects(project, { ...project })).toBe('');
  });

  it('combines 2-3 sequential diffs into one patch that gives the same files as applying them one by one', () => {
    const second = `--- a/src/step.ts
+++ b/src/step.ts
@@ -1,2 +1,3 @@
 import { range } from './range';
 export const evens = range(0, 10, 2);
+export const odds = range(1, 10, 2);
`;
    const third = `--- a/src/range.ts
+++ b/src/range.ts
@@ -7,5 +7,3 @@
 export function sum(values: number[]): number {
-  let total = 0;
-  for (const v of values) total += v;
-  return total;
+  return values.reduce((total, v) => total + v, 0);
 }
`;
    const diffs = [modelDiff, second, third];
    const stepwise = diffs.reduce<ProjectFiles>((files, diff) => gitApply(files, diff), project);
    const combined = applyDiffs(project, diffs);
    expect(combined.ok).toBe(true);
    if (!combined.ok) return;
    expect(combined.files).toEqual(stepwise);
    const patch = diffProjects(project, combined.files);
    expect(gitApply(project, patch)).toEqual(stepwise);
    // the first diff that does not apply is named by its place
    expect(applyDiffs(project, [modelDiff, third, third])).toEqual({
      ok: false,
      reason: 'diff 3 of 3: src/range.ts: hunk 1 (at line 7) does not match',
    });
  });
});
