/**
 * The code task's words shared by the server, the browser and programs: how a goal names the project to change
 * (a bundled benchmark project or a local folder), and how the run's public output (a change description and the
 * one combined patch) is written into and read back from the run's output text.
 * Not responsible for loading projects, applying diffs or verifying them (lib/tasks/code, server only), nor for who
 * may point a run at a local folder (the server checks isAdmin, lib/contract/access.ts).
 */

/** A bundled benchmark project's id: lower-case words joined by dashes ("clamp-range"). */
export const BENCH_PROJECT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Test files of a local folder when its goal names none. */
export const DEFAULT_TEST_GLOB = '**/*.test.ts';

export type CodeProjectRef = { kind: 'bench'; id: string } | { kind: 'folder'; path: string };

/**
 * A code goal, one `key: value` per line:
 *   project: bench/<id>            a bundled benchmark project (its own change request applies)
 *   project: /absolute/folder      a local folder, copied into the sandbox and never modified (admins only)
 *   tests: <glob>                  the folder's test files (default DEFAULT_TEST_GLOB); not for a bench project
 *   change: <request in words>     what to change; required for a folder, replaces a bench project's own request
 */
export interface CodeGoal {
  project: CodeProjectRef;
  /** Null for a bench project (its tests are part of it). */
  tests: string | null;
  /** Null when a bench project's own request applies. */
  change: string | null;
}

const KEYS = ['project', 'tests', 'change'] as const;
type Key = (typeof KEYS)[number];

export type CodeGoalParse = { ok: true; goal: CodeGoal } | { ok: false; error: string };

/** Reads a code goal; the error names the line or key at fault in a few words. */
export function parseCodeGoal(text: string): CodeGoalParse {
  const values: Partial<Record<Key, string>> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    if (!(KEYS as readonly string[]).includes(key)) {
      return { ok: false, error: `each line is "project: …", "tests: …" or "change: …" (not "${line.slice(0, 40)}")` };
    }
    if (values[key as Key] !== undefined) return { ok: false, error: `"${key}" is given twice` };
    values[key as Key] = line.slice(colon + 1).trim();
  }
  const project = values.project;
  if (!project) return { ok: false, error: 'name the project: "project: bench/<id>" or "project: /absolute/folder"' };
  const change = values.change === undefined || values.change === '' ? null : values.change;
  if (project.startsWith('bench/')) {
    const id = project.slice('bench/'.length);
    if (!BENCH_PROJECT_ID.test(id)) return { ok: false, error: `"${id}" is not a benchmark project id` };
    if (values.tests !== undefined) return { ok: false, error: 'a benchmark project has its own tests' };
    return { ok: true, goal: { project: { kind: 'bench', id }, tests: null, change } };
  }
  if (!project.startsWith('/')) {
    return { ok: false, error: 'the project is "bench/<id>" or an absolute folder path' };
  }
  if (project.split('/').includes('..')) return { ok: false, error: 'the folder path cannot contain ".."' };
  if (change === null) return { ok: false, error: 'say what to change: "change: …"' };
  const tests = values.tests === undefined || values.tests === '' ? DEFAULT_TEST_GLOB : values.tests;
  return { ok: true, goal: { project: { kind: 'folder', path: project }, tests, change } };
}

/** The goal's problem in a few words, or null (TaskInfo.validateGoal for the code task). */
export function codeGoalError(text: string): string | null {
  const parsed = parseCodeGoal(text);
  return parsed.ok ? null : parsed.error;
}

/** The goal as text, in the order parseCodeGoal reads (a bench project's goal is its one line). */
export function formatCodeGoal(goal: CodeGoal): string {
  const lines = [`project: ${goal.project.kind === 'bench' ? `bench/${goal.project.id}` : goal.project.path}`];
  if (goal.tests !== null) lines.push(`tests: ${goal.tests}`);
  if (goal.change !== null) lines.push(`change: ${goal.change}`);
  return lines.join('\n');
}

/** True when the goal points at a local folder: the server lets only admins create such a run. */
export function goalNamesFolder(text: string): boolean {
  const parsed = parseCodeGoal(text);
  return parsed.ok && parsed.goal.project.kind === 'folder';
}

/**
 * The public output of a code run, apart from its scratchpad: what changed in words and the one combined patch of
 * the winning path, which `git apply` accepts in the project's folder.
 */
export interface CodeOutput {
  description: string;
  patch: string;
}

/** Where the patch starts in the output text: git's own header, which `git apply` looks for. */
const PATCH_START = /^diff --git /m;

/**
 * The output text: the description, a blank line, the patch. `git apply` skips the text before the first
 * `diff --git` line, so the whole output applies as it is.
 */
export function formatCodeOutput(output: CodeOutput): string {
  const description = output.description.trim().replace(/^diff --git /gm, 'diff --git\u00a0');
  return `${description}\n\n${output.patch.endsWith('\n') ? output.patch : `${output.patch}\n`}`;
}

/** The description and patch of a code run's output, or null when the text holds no patch. */
export function parseCodeOutput(text: string): CodeOutput | null {
  const match = PATCH_START.exec(text);
  if (!match) return null;
  return { description: text.slice(0, match.index).trim(), patch: text.slice(match.index) };
}

/** The file name a downloaded patch gets: the run's id, so two downloads never collide. */
export function patchFileName(runId: string): string {
  return `arborist-${runId.replace(/[^A-Za-z0-9_-]/g, '_')}.patch`;
}
