/**
 * The bundled benchmark projects (bench/<id>/: project/ before the change, task.json, steps/*.diff), read from disk
 * at run time and kept once read.
 * Not responsible for verifying them (sandbox/; bench.test.ts proves each project's claims) or searching them (task.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BENCH_PROJECT_ID } from '../../contract/code';
import type { BenchProject, BenchProjectInfo, ProjectFiles } from './types';

/** A step's diff file, relative to the project's folder ("steps/1.diff"); never outside it. */
const diffPath = z.string().regex(/^steps\/[\w.-]+\.diff$/);

const taskFile = z.object({
  id: z.string().regex(BENCH_PROJECT_ID),
  title: z.string().min(1),
  request: z.string().min(1),
  kind: z.enum(['wrong-type', 'failing-test', 'rename', 'api-migration', 'feature', 'bug']),
  steps: z
    .array(
      z.object({
        hypothesis: z.string().min(1),
        diff: diffPath,
        wrong: z.array(
          z.object({
            hypothesis: z.string().min(1),
            diff: diffPath,
            fails: z.enum(['type-error', 'failing-test', 'does-not-apply', 'regression']),
          }),
        ),
      }),
    )
    .min(1),
});

/**
 * The bench/ folder. Beside this module under vitest and tsx; under Next's server the module is bundled and its
 * own URL says nothing of the sources, so the folder is found from the project root (process.cwd(), as
 * lib/server does). Not `new URL('./bench', import.meta.url)`: Turbopack would take that as an asset to bundle.
 */
function benchRoot(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench');
  if (existsSync(beside)) return beside;
  return path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'tasks', 'code', 'bench');
}

/** Every file under `dir`, by posix path relative to it. */
function readTree(dir: string): ProjectFiles {
  const files: ProjectFiles = {};
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) files[rel] = readFileSync(path.join(dir, rel), 'utf8');
    }
  };
  walk('');
  return files;
}

function readProject(root: string, id: string): BenchProject {
  const dir = path.join(root, id);
  const parsed = taskFile.safeParse(JSON.parse(readFileSync(path.join(dir, 'task.json'), 'utf8')));
  if (!parsed.success) throw new Error(`bench/${id}/task.json: ${parsed.error.message}`);
  const task = parsed.data;
  if (task.id !== id) throw new Error(`bench/${id}/task.json names the id "${task.id}"`);
  const diff = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  const files = readTree(path.join(dir, 'project'));
  return {
    id,
    title: task.title,
    request: task.request,
    kind: task.kind,
    files,
    tests: Object.keys(files)
      .filter((file) => file.endsWith('.test.ts'))
      .sort(),
    steps: task.steps.map((step) => ({
      hypothesis: step.hypothesis,
      diff: diff(step.diff),
      wrong: step.wrong.map((wrong) => ({ hypothesis: wrong.hypothesis, diff: diff(wrong.diff), fails: wrong.fails })),
    })),
  };
}

let cache: Map<string, BenchProject> | null = null;

/** Every project, read once; ids in alphabetical order. */
function allProjects(): Map<string, BenchProject> {
  if (cache) return cache;
  const root = benchRoot();
  const ids = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && BENCH_PROJECT_ID.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  cache = new Map(ids.map((id) => [id, readProject(root, id)]));
  return cache;
}

/** Every benchmark project, in a stable order (by id), for the run form and the figures script. */
export function benchProjects(): BenchProjectInfo[] {
  return [...allProjects().values()].map(({ id, title, request, kind, steps }) => ({
    id,
    title,
    request,
    kind,
    steps: steps.length,
  }));
}

/** The project with this id, or null; a copy, so a caller may change it without touching the cache. */
export function loadBenchProject(id: string): BenchProject | null {
  const project = allProjects().get(id);
  return project ? structuredClone(project) : null;
}
