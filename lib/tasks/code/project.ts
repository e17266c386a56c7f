/**
 * The project a code goal names, loaded once: a bundled benchmark project (bench.ts) or a local folder, read with
 * fs/promises and never written. A folder's text files are read under caps (file count, bytes), skipping dependency
 * and build folders, binary files and symbolic links; its tests are the files the goal's `tests:` glob matches.
 * Not responsible for the goal's grammar (lib/contract/code.ts), for who may name a folder (the server), for applying
 * diffs (diff.ts) or for verifying anything (sandbox/).
 */
import { statSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { formatCodeGoal, parseCodeGoal, type CodeGoal } from '../../contract/code';
import type { ThoughtNode } from '../../engine/index';
import { loadBenchProject } from './bench';
import { applyDiffs, type ApplyResult } from './diff';
import type { BenchProject, ProjectFiles } from './types';

/** A local folder bigger than this is refused: the whole project goes into every generation prompt. */
export const MAX_PROJECT_FILES = 200;
export const MAX_PROJECT_BYTES = 512 * 1024;
/** Folders never read: installed dependencies, version control, build output. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git', 'dist', 'build', '.next']);

export interface LoadedProject {
  /** The cache key: the goal as parseCodeGoal reads it, written back in its one canonical form. */
  key: string;
  /** The goal's project line ("bench/clamp-range" or the folder's path). */
  title: string;
  files: ProjectFiles;
  /** Test files (paths in `files`). */
  tests: string[];
  /** What to change: the goal's `change:`, else the benchmark's own request. */
  request: string;
  /** The benchmark project, or null for a local folder. */
  bench: BenchProject | null;
}

function parsed(goalText: string): CodeGoal {
  const result = parseCodeGoal(goalText);
  if (!result.ok) throw new Error(result.error);
  return result.goal;
}

/** The goal's problem, including a project that is not there (ThoughtTask.validateGoal: sync, before any call). */
export function projectGoalError(goalText: string): string | null {
  const result = parseCodeGoal(goalText);
  if (!result.ok) return result.error;
  const project = result.goal.project;
  if (project.kind === 'bench') {
    return loadBenchProject(project.id) ? null : `there is no benchmark project "${project.id}"`;
  }
  try {
    if (!statSync(project.path).isDirectory()) return `"${project.path}" is not a folder`;
  } catch {
    return `the folder "${project.path}" does not exist`;
  }
  return null;
}

const cache = new Map<string, Promise<LoadedProject>>();
const loaded = new Map<string, LoadedProject>();

/** The goal's key: the same project, tests and change always share one load (and one baseline run). */
export function projectKey(goalText: string): string {
  return formatCodeGoal(parsed(goalText));
}

/** Loads the goal's project (once per key; a failed load is forgotten, so a fixed folder can be tried again). */
export function loadProject(goalText: string): Promise<LoadedProject> {
  const key = projectKey(goalText);
  let pending = cache.get(key);
  if (!pending) {
    pending = load(key, parsed(goalText)).then(
      (project) => {
        loaded.set(key, project);
        return project;
      },
      (error: unknown) => {
        cache.delete(key);
        throw error;
      },
    );
    cache.set(key, pending);
  }
  return pending;
}

/**
 * The project already loaded for the goal, for the task's synchronous prompt builders: a benchmark project loads
 * synchronously; a folder must have been loaded first (the task's prepare does it before the search starts).
 */
export function loadedProject(goalText: string): LoadedProject {
  const key = projectKey(goalText);
  const ready = loaded.get(key);
  if (ready) return ready;
  const goal = parsed(goalText);
  if (goal.project.kind === 'bench') {
    const project = benchProject(key, goal, goal.project.id);
    loaded.set(key, project);
    cache.set(key, Promise.resolve(project));
    return project;
  }
  throw new Error(`the folder "${goal.project.path}" has not been loaded yet`);
}

function benchProject(key: string, goal: CodeGoal, id: string): LoadedProject {
  const bench = loadBenchProject(id);
  if (!bench) throw new Error(`there is no benchmark project "${id}"`);
  return {
    key,
    title: `bench/${id}`,
    files: bench.files,
    tests: bench.tests,
    request: goal.change ?? bench.request,
    bench,
  };
}

async function load(key: string, goal: CodeGoal): Promise<LoadedProject> {
  if (goal.project.kind === 'bench') return benchProject(key, goal, goal.project.id);
  const root = goal.project.path;
  const files = await readFolder(root);
  const isTest = picomatch(goal.tests ?? '', { dot: false });
  const tests = Object.keys(files).filter((path) => isTest(path));
  if (tests.length === 0) throw new Error(`no file of "${root}" matches the tests glob "${goal.tests ?? ''}"`);
  // the goal's grammar requires `change:` for a folder
  return { key, title: root, files, tests, request: goal.change ?? '', bench: null };
}

/** Text as UTF-8, or null for a binary file (a NUL byte, or bytes that are not UTF-8). */
function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A folder's text files by posix path, refusing a project over the caps with the cap it passed. */
export async function readFolder(root: string): Promise<ProjectFiles> {
  const files: ProjectFiles = {};
  let count = 0;
  let bytes = 0;
  const visit = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = join(dir, entry.name);
      // a link could point anywhere on the machine: only the folder's own files are read
      if (entry.isSymbolicLink() || (await lstat(full)).isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await visit(full, path);
        continue;
      }
      if (!entry.isFile()) continue;
      const content = asText(await readFile(full));
      if (content === null) continue;
      count += 1;
      bytes += Buffer.byteLength(content);
      if (count > MAX_PROJECT_FILES) {
        throw new Error(
          `the folder has more than ${MAX_PROJECT_FILES} text files (outside ${[...SKIPPED_FOLDERS].join(', ')})`,
        );
      }
      if (bytes > MAX_PROJECT_BYTES) {
        throw new Error(
          `the folder's text files pass ${MAX_PROJECT_BYTES / 1024} KiB: point the run at a smaller project`,
        );
      }
      files[path] = content;
    }
  };
  await visit(root, '');
  if (count === 0) throw new Error(`the folder "${root}" holds no text files`);
  return files;
}

/** The diffs of a path's code changes, root first (nodes of other actions change nothing). */
export function stepDiffs(path: readonly ThoughtNode[]): string[] {
  return path.flatMap((node) =>
    node.branch?.proposedAction.type === 'code_change' ? [node.branch.proposedAction.diff] : [],
  );
}

/** The project as a node sees it: its files with every diff of the path applied, in order. */
export function projectState(project: LoadedProject, path: readonly ThoughtNode[]): ApplyResult {
  return applyDiffs(project.files, stepDiffs(path));
}
