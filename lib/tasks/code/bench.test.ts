/**
 * The benchmark keeps its promises, checked for real with the project's own diff and sandbox: every project's base
 * fails, its reference steps apply in order with each state type-checking and keeping what passed, the last state
 * passes everything, and every wrong change fails the way its task.json says.
 * Not a test of the sandbox or of diff application themselves (their own tests).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { benchProjects, loadBenchProject } from './bench';
import { applyDiff } from './diff';
import { verifyInSandbox } from './sandbox';
import type { BenchProject, BenchWrongChange, ProjectFiles, SandboxReport } from './types';

const projects = benchProjects();

/** Names of the tests that passed ("src/a.test.ts > name"). */
function passing(report: SandboxReport): Set<string> {
  return new Set(report.tests.results.filter((r) => r.passed).map((r) => `${r.file} > ${r.name}`));
}

function verify(project: BenchProject, files: ProjectFiles, alwaysRunTests = false): Promise<SandboxReport> {
  return verifyInSandbox({ files, tests: project.tests, alwaysRunTests });
}

function applied(files: ProjectFiles, diff: string): ProjectFiles {
  const result = applyDiff(files, diff);
  if (!result.ok) throw new Error(`the reference step does not apply: ${result.reason}`);
  return result.files;
}

/**
 * How a change went wrong, judged against the state before it (`before`) and the reference step's result (`ref`):
 * a type error first, then a test that passed before and fails now, then a test the reference makes pass that
 * still fails. 'passes' when none of these.
 */
async function howItFails(
  project: BenchProject,
  files: ProjectFiles,
  wrong: BenchWrongChange,
  before: SandboxReport,
  ref: SandboxReport,
): Promise<BenchWrongChange['fails'] | 'passes'> {
  const result = applyDiff(files, wrong.diff);
  if (!result.ok) return 'does-not-apply';
  const report = await verify(project, result.files);
  if (!report.typecheck.ok) return 'type-error';
  const now = passing(report);
  if ([...passing(before)].some((name) => !now.has(name))) return 'regression';
  if ([...passing(ref)].some((name) => !now.has(name))) return 'failing-test';
  return 'passes';
}

test('the benchmark has at least 12 projects, 4 of them in several steps, listed in a stable order', () => {
  expect(projects.length).toBeGreaterThanOrEqual(12);
  expect(projects.filter((p) => p.steps >= 2).length).toBeGreaterThanOrEqual(4);
  expect(projects.map((p) => p.id)).toEqual([...projects.map((p) => p.id)].sort());
  expect(projects.filter((p) => p.steps === 1).length).toBeGreaterThan(0);
  expect(new Set(projects.map((p) => p.kind))).toEqual(
    new Set(['wrong-type', 'failing-test', 'rename', 'api-migration', 'feature', 'bug']),
  );
});

test('every step offers at least two wrong changes, and the README table names every project', () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  for (const { id } of projects) {
    expect(
      loadBenchProject(id)?.steps.map((step) => step.wrong.length >= 2),
      id,
    ).not.toContain(false);
    expect(readme, id).toContain(`| \`${id}\``);
  }
});

test('a project loads with posix paths, its test files and its diffs read in; an unknown id is null', () => {
  const first = projects[0];
  if (!first) throw new Error('no benchmark project');
  const project = loadBenchProject(first.id);
  expect(project?.tests.length).toBeGreaterThan(0);
  expect(project?.tests.every((file) => file in project.files && file.endsWith('.test.ts'))).toBe(true);
  expect(Object.keys(project?.files ?? {}).every((file) => !file.includes('\\') && !file.startsWith('/'))).toBe(true);
  expect(project?.steps[0]?.diff).toMatch(/^diff --git a\//);
  expect(loadBenchProject('no-such-project')).toBeNull();
  expect(loadBenchProject('../bench')).toBeNull();
});

test('a loaded project is a copy: changing it leaves the next load as it was', () => {
  const id = projects[0]?.id ?? '';
  const project = loadBenchProject(id);
  if (!project) throw new Error('no benchmark project');
  const file = project.tests[0] ?? '';
  project.files[file] = 'changed';
  expect(loadBenchProject(id)?.files[file]).not.toBe('changed');
});

/**
 * A project's verifications wait for the sandbox's pool with every other project's, so its clock starts long before
 * its turn: a limit for the whole file's worth of work, not a speed claim.
 */
const PROJECT_TIMEOUT_MS = 300_000;

describe.concurrent.each(projects.map((p) => p.id))('%s', (id) => {
  test(
    'fails before the change, passes after its reference steps, and each wrong change fails as it says',
    async () => {
      const project = loadBenchProject(id);
      if (!project) throw new Error(`no project ${id}`);
      const base = await verify(project, project.files, true);
      expect(base.typecheck.ok && base.tests.status === 'passed', 'the base already passes').toBe(false);
      const passedAtBase = passing(base);
      let files = project.files;
      let before = base;
      for (const [index, step] of project.steps.entries()) {
        const next = applied(files, step.diff);
        const report = await verify(project, next);
        expect(report.typecheck.diagnostics, `step ${index + 1} type-checks`).toEqual([]);
        const now = passing(report);
        expect(
          [...passedAtBase].filter((name) => !now.has(name)),
          `step ${index + 1} keeps what passed`,
        ).toEqual([]);
        const outcomes = await Promise.all(
          step.wrong.map((wrong) => howItFails(project, files, wrong, before, report)),
        );
        expect(outcomes, `step ${index + 1}'s wrong changes`).toEqual(step.wrong.map((wrong) => wrong.fails));
        files = next;
        before = report;
      }
      expect(before.tests.status, before.tests.output).toBe('passed');
      expect(before.tests.results.length).toBeGreaterThan(0);
      expect(before.tests.results.filter((r) => !r.passed)).toEqual([]);
    },
    PROJECT_TIMEOUT_MS,
  );
});
