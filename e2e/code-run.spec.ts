// Code runs in the browser: a recorded code run (a log made here, imported) shows a failed change's verdict on its
// card, its diff and its trace in the inspector, and the verified patch as the run's public output with a download;
// a live code run on a benchmark project streams, fails a check and backtracks, ends verified, and the .patch it
// downloads applies with real `git apply` to a fresh copy of the project, whose tests then pass.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../lib/contract/events';
import { formatCodeOutput, patchFileName } from '../lib/contract/code';
import { DEFAULT_TOT_CONFIG } from '../lib/engine/index';
import { buildExport } from '../lib/formats/index';
import { ndjson } from './api';
import { loadBenchProject, verifyInSandbox } from '../lib/tasks/index';

const GOOD_DIFF = [
  'diff --git a/src/range.ts b/src/range.ts',
  '--- a/src/range.ts',
  '+++ b/src/range.ts',
  '@@ -9,6 +9,6 @@ export function clamp(value: number, min: number, max: number): number {',
  ' /** The integers start, start+1, ..., end-1 (end excluded, like Array.prototype.slice). */',
  ' export function range(start: number, end: number): number[] {',
  '   const result: number[] = [];',
  '-  for (let i = start; i <= end; i++) result.push(i);',
  '+  for (let i = start; i < end; i++) result.push(i);',
  '   return result;',
  ' }',
  '',
].join('\n');

const TYPE_ERROR_DIFF = [
  'diff --git a/src/range.ts b/src/range.ts',
  '--- a/src/range.ts',
  '+++ b/src/range.ts',
  '@@ -7,8 +7,8 @@ export function clamp(value: number, min: number, max: number): number {',
  ' }',
  ' ',
  ' /** The integers start, start+1, ..., end-1 (end excluded, like Array.prototype.slice). */',
  '-export function range(start: number, end: number): number[] {',
  '+export function range(start: number, end: number, step?: number): number[] {',
  '   const result: number[] = [];',
  '-  for (let i = start; i <= end; i++) result.push(i);',
  '+  for (let i = start; i < end; i += step) result.push(i);',
  '   return result;',
  ' }',
  '',
].join('\n');

const TYPE_ERROR_TRACE = [
  "FAIL: type error: src/range.ts(12,38): error TS18048: 'step' is possibly 'undefined'.",
  'type-check: 1 error',
  "src/range.ts(12,38): error TS18048: 'step' is possibly 'undefined'.",
  'tests: skipped (the type-check failed)',
].join('\n');

/** A finished code run's log, made here: one change fails its type-check and backtracks, its sibling passes. */
function recordedCodeRun(runId: string): ExplorationEvent[] {
  const events: ExplorationEvent[] = [];
  const started = Date.now();
  const add = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]) =>
    events.push({ runId, seq: events.length + 1, ts: started + events.length, type, payload } as ExplorationEvent);
  const score = (composite: number) => ({
    confidence: composite,
    progress: composite,
    novelty: 0.5,
    composite,
    reasoning: '',
    fallback: false,
  });
  add('run.started', {
    goal: 'project: bench/clamp-range',
    taskId: 'code',
    agentName: 'e2e',
    modelId: 'simulated',
    config: DEFAULT_TOT_CONFIG,
  });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  const branch = (thought: string, diff: string) => ({
    thought,
    proposedAction: { type: 'code_change' as const, diff },
  });
  add('node.created', {
    nodeId: 'n1',
    parentId: 'n0',
    branch: branch('Give range() an optional step and stop before the end.', TYPE_ERROR_DIFF),
    score: score(0.8),
  });
  add('node.created', {
    nodeId: 'n2',
    parentId: 'n0',
    branch: branch(
      'range() includes its end although its doc says the end is excluded: loop while i < end.',
      GOOD_DIFF,
    ),
    score: score(0.7),
  });
  add('node.started', { nodeId: 'n1', mode: 'execute' });
  add('node.completed', { nodeId: 'n1', result: { response: 'src/range.ts +2 −2', iterations: 0, isAnswer: false } });
  add('node.verified', { nodeId: 'n1', passed: false, trace: TYPE_ERROR_TRACE });
  add('node.failed', { nodeId: 'n1', reason: `verification failed: ${TYPE_ERROR_TRACE}` });
  add('backtrack', { fromId: 'n1', toId: 'n2', reason: 'verification failed' });
  add('node.started', { nodeId: 'n2', mode: 'execute' });
  add('node.completed', { nodeId: 'n2', result: { response: 'src/range.ts +1 −1', iterations: 0, isAnswer: true } });
  add('node.verified', {
    nodeId: 'n2',
    passed: true,
    trace: 'PASS: type-check clean; 6 of 6 tests pass\nok 1 - range excludes its end\nok 2 - pager shows width pages',
  });
  add('run.finished', {
    reason: 'terminated',
    detail: null,
    bestNodeId: 'n2',
    output: formatCodeOutput({ description: 'range() now stops before its end, as its doc says.', patch: GOOD_DIFF }),
    answerSource: 'node',
    success: true,
    verified: true,
  });
  return events;
}

async function importRun(base: string, events: ExplorationEvent[], runId: string): Promise<string> {
  const started = events[0]?.ts ?? Date.now();
  const file = buildExport(
    {
      id: runId,
      taskId: 'code',
      goal: 'project: bench/clamp-range',
      modelId: 'simulated',
      modelLabel: 'simulated',
      modelSettings: null,
      config: DEFAULT_TOT_CONFIG,
      seed: null,
      status: 'finished',
      finishReason: 'terminated',
      // now, not a made-up past: other specs take the oldest run for the demo run (e2e/api.ts demoRunId)
      createdAt: new Date(started),
      startedAt: new Date(started),
      finishedAt: new Date(started + events.length),
      importTag: null,
      parentRunId: null,
      parentNodeId: null,
    },
    events,
  );
  const res = await fetch(`${base}/api/runs/import?tag=e2e-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(file),
  });
  const answer = (await res.json()) as { runs?: { id: string }[]; error?: string };
  if (!res.ok || !answer.runs?.[0]) throw new Error(`import failed (${res.status}): ${answer.error ?? ''}`);
  return answer.runs[0].id;
}

async function selectNode(page: Page, nodeId: string) {
  await page.locator(`[data-testid="thought-node"][data-node-id="${nodeId}"]`).click();
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', nodeId);
}

/** The page in light or dark, as the system would ask for it. */
async function inScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
}

test('a recorded code run: the failed change is marked by its verdict, its diff and trace read in the inspector, the patch is the public output', async ({
  page,
  baseURL,
}) => {
  const id = await importRun(baseURL as string, recordedCodeRun('recorded-code'), 'recorded-code');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/runs/${id}`);

  await expect(page.locator('[data-node-id="n2"] [data-testid="mark-verdict"]')).toHaveText('tests pass');
  await page.getByTestId('fold-node').first().click(); // the failed change is folded as a dead end: open it
  const failed = page.locator('[data-testid="thought-node"][data-node-id="n1"]');
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(failed.getByTestId('mark-verdict')).toHaveText('type error');

  await selectNode(page, 'n1');
  const diff = page.getByTestId('inspector-node').getByTestId('diff-view');
  await expect(diff.getByTestId('diff-file')).toHaveAttribute('data-path', 'src/range.ts');
  // the lines it removes and adds, as code in the table
  await expect(diff.locator('.diff-code-insert').first()).toContainText('step?: number');
  await expect(diff.locator('.diff-code-delete').first()).toContainText('end: number): number[]');
  const trace = page.getByTestId('verification-output');
  await expect(trace).toHaveAttribute('data-verdict', 'type-error');
  await expect(trace).toContainText("error TS18048: 'step' is possibly 'undefined'.");

  // unified and split, in light and dark
  await diff.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  for (const view of ['unified', 'split'] as const) {
    await diff.getByTestId(`diff-${view}`).click();
    await expect(diff).toHaveAttribute('data-view-type', view);
    for (const scheme of ['light', 'dark'] as const) {
      await inScheme(page, scheme);
      await page.screenshot({ path: test.info().outputPath(`diff-${view}-${scheme}.png`) });
    }
  }

  await trace.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  for (const scheme of ['light', 'dark'] as const) {
    await inScheme(page, scheme);
    await page.screenshot({ path: test.info().outputPath(`trace-${scheme}.png`) });
  }

  // the public output: on the root, the description and the patch, in the layout chosen last, remembered on reload
  await page.goto(`/runs/${id}?node=n0`);
  const output = page.getByTestId('public-output');
  await expect(output.getByTestId('public-output-description')).toHaveText(
    'range() now stops before its end, as its doc says.',
  );
  await expect(output.getByTestId('public-output-diff')).toHaveAttribute('data-view-type', 'split');
  await output.getByTestId('diff-unified').click();
  await expect(output.getByTestId('diff-file')).toHaveAttribute('data-path', 'src/range.ts');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    output.getByTestId('public-output-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe(patchFileName(id));
  const saved = await download.path();
  expect(readFileSync(saved, 'utf8')).toBe(GOOD_DIFF);
  for (const scheme of ['light', 'dark'] as const) {
    await inScheme(page, scheme);
    await page.screenshot({ path: test.info().outputPath(`output-${scheme}.png`) });
  }
});

/** The bench project's files in a fresh git repository in a temp folder (its own copy, removed by the caller). */
function freshCopy(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'arborist-e2e-code-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/** Every file of a folder by posix path, .git left out. */
function readTree(root: string, under = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(join(root, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) Object.assign(files, readTree(root, path));
    else files[path] = readFileSync(join(root, path), 'utf8');
  }
  return files;
}

test.describe('a live code run', () => {
  // The sandbox's limits are wall-clock (type-check 30 s, tests 10 s): on a machine loaded far past its cores a right
  // change can time out, the run then ends unverified. One more try tells a loaded machine from a broken page.
  test.describe.configure({ retries: 1 });

  test('a code run on a benchmark project streams live, fails a check and backtracks, ends verified, and its .patch applies with git apply and passes the tests', async ({
    page,
    baseURL,
  }) => {
    const project = loadBenchProject('clamp-range');
    if (!project) throw new Error('setup: the benchmark has no clamp-range project');
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/');
    await page.getByTestId('field-taskId').selectOption('code');
    await page.getByTestId('code-project').selectOption('clamp-range');
    await expect(page.getByTestId('code-request')).toContainText(project.request);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: test.info().outputPath(`form-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    // the local person is an admin: an own folder is offered, and coming back keeps the project picked
    await page.getByTestId('code-source-folder').check();
    await expect(page.getByTestId('code-folder')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`form-folder-light.png`) });
    await page.getByTestId('code-source-bench').check();
    await expect(page.getByTestId('code-project')).toHaveValue('clamp-range');
    // seed 3 proposes wrong changes before the right one on this project (the simulation is deterministic per seed)
    await page.getByLabel('Seed').fill('3');
    // slow enough model calls that a page opened on a loaded machine still finds the run going
    await page.getByLabel('Latency (ms)').fill('1200');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    const runId = new URL(page.url()).pathname.split('/').pop() as string;

    // live: proposed changes appear on the canvas while the run is still running (the root and at least one branch)
    const status = page.getByTestId('run-status');
    const cards = page.getByTestId('thought-node');
    await expect
      .poll(async () => `${await status.textContent()} ${await cards.count()}`, { timeout: 60_000 })
      .toMatch(/^running ([2-9]|\d{2,})$/);

    await expect(status).toHaveText('finished', { timeout: 80_000 });
    // a failed check: its node failed (the log says which), its verdict on its card, its trace in the inspector; a
    // link to the node shows it even where its dead end is folded
    const failedId = (await ndjson(baseURL as string, runId)).find((e) => e.type === 'node.failed')?.payload.nodeId;
    if (!failedId) throw new Error('setup: this seed no longer fails a check on clamp-range: pick another');
    await page.goto(`/runs/${runId}?node=${failedId}`);
    const failed = page.locator(`[data-testid="thought-node"][data-node-id="${failedId}"]`);
    await expect(failed).toHaveAttribute('data-status', 'failed');
    await expect(failed.getByTestId('mark-verdict')).toHaveText(
      /^(type error|tests failed|does not apply|check failed)$/,
    );
    await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', failedId);
    const trace = page.getByTestId('verification-output');
    await expect(trace).toHaveAttribute('data-passed', 'false');
    await expect(trace).toContainText('FAIL:');
    await expect(page.getByTestId('inspector-node').getByTestId('diff-file').first()).toBeVisible();
    await trace.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: test.info().outputPath(`live-failed-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // the run ends verified, and the patch it offers applies to a fresh copy of the project, whose tests then pass
    await page.goto(`/runs/${runId}?node=n0`);
    // the goal names the project only: the header names the run by the project's title, the root says what it asks
    await expect(page.getByTestId('run-title')).toHaveText(project.title);
    await expect(page.getByTestId('inspector-bench-request')).toContainText(project.request);
    await expect(page.getByTestId('inspector-verified')).toHaveText('verified');
    await expect(page.getByTestId('public-output-diff').getByTestId('diff-file').first()).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('header-patch-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(patchFileName(runId));
    const root = freshCopy(project.files);
    try {
      await download.saveAs(join(root, download.suggestedFilename()));
      execFileSync('git', ['apply', '--check', download.suggestedFilename()], { cwd: root, stdio: 'pipe' });
      execFileSync('git', ['apply', download.suggestedFilename()], { cwd: root, stdio: 'pipe' });
      rmSync(join(root, download.suggestedFilename()));
      const after = readTree(root);
      expect(after).not.toEqual(project.files);
      const report = await verifyInSandbox({ files: after, tests: project.tests });
      expect(report.typecheck.diagnostics).toEqual([]);
      expect(report.tests.status).toBe('passed');
      expect(report.tests.results.length).toBeGreaterThan(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
