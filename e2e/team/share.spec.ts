// A share link, end to end (and a member's delete, on their own runs only): a member pins a link to a step and a node of their run; someone without an account
// opens it in a fresh browser and sees that run at that step with that node selected, read only, and is refused
// any other run (on the page and by the API); after Revoke the link stops working, for a newcomer and for the
// browser that already opened it.
// data-testid used: share-run, share-dialog, share-pin-step, share-pin-node, share-allow-prompts, share-create,
//   share-url, share-link (data-state), share-revoke, time-travel, inspector-node, shared-mark, shared-note,
//   run-missing, export-run, link-gone, inspector-model-call, inspector-prompt-withheld, timeline-position.
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { addPerson, ok, signIn, startRun, TEAM_ADMIN, TEAM_BASE, trpcMutation, trpcQuery, waitForStatus } from './team';

let admin: APIRequestContext;
let member: { email: string; password: string };
let runId: string;
let otherRunId: string;
let step: number;
let lastSeq: number;
let rootId: string;
const NODE = 'n2';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(admin, TEAM_ADMIN.email, TEAM_ADMIN.password);
  member = await addPerson(admin, 'member', 'member');
  const memberApi = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(memberApi, member.email, member.password);
  runId = await startRun(memberApi, 0, 5);
  otherRunId = await startRun(admin, 0, 6);
  await waitForStatus(memberApi, runId, 'finished');
  const { events, lastSeq: last } = await ok<{
    events: { seq: number; type: string; payload: { nodeId?: string; parentId?: string | null } }[];
    lastSeq: number;
  }>(trpcQuery(memberApi, 'run.events', { id: runId, light: true }));
  rootId = events.find((e) => e.type === 'node.created' && e.payload.parentId === null)?.payload.nodeId ?? '';
  const created = events.find((e) => e.type === 'node.created' && e.payload.nodeId === NODE);
  if (!created) throw new Error(`the run has no ${NODE}`);
  lastSeq = last;
  // a past step at which the node exists
  step = Math.min(created.seq + 3, last - 1);
  await memberApi.dispose();
});

test.afterAll(async () => {
  await admin.dispose();
});

let shareUrl: string;

test('a member makes a link pinned to the step on screen and the selected node', async ({ page }) => {
  await signIn(page.request, member.email, member.password);
  // a member deletes their own runs only: the admin's has no delete
  await page.goto('/');
  const row = (id: string) => page.locator(`[data-testid=run-row][data-run-id="${id}"]`);
  await expect(row(runId).getByTestId('run-delete')).toBeVisible();
  await expect(row(otherRunId)).toBeVisible();
  await expect(row(otherRunId).getByTestId('run-delete')).toHaveCount(0);

  await page.goto(`/runs/${runId}?step=${step}&node=${NODE}`);
  await expect(page.getByTestId('time-travel')).toHaveText(`at step ${step} of ${lastSeq}`);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', NODE);
  // a member steers: the commands they may use are there
  await expect(page.getByTestId('run-header').getByRole('button', { name: 'Abort', exact: true })).toBeVisible();

  await page.getByTestId('share-run').click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog.getByTestId('share-pin-step')).toBeChecked();
  await expect(dialog.getByTestId('share-pin-node')).toBeChecked();
  await expect(dialog.getByTestId('share-allow-prompts')).not.toBeChecked();
  await expect(dialog).toContainText(`step ${step}`);
  await dialog.getByTestId('share-create').click();
  const url = dialog.getByTestId('share-url');
  await expect(url).toHaveValue(new RegExp(`^${TEAM_BASE}/share/`));
  shareUrl = await url.inputValue();
  const link = dialog.getByTestId('share-link');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute('data-state', 'active');
  await expect(link).toContainText(member.email);
  await expect(link).toContainText(`step ${step} · ${NODE}`);
});

test('someone without an account opens the link: the same run, step and node, read only', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(shareUrl);
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}\\?step=${step}&node=${NODE}$`));
  await expect(page.getByTestId('shared-mark')).toHaveText('Shared with you · read only');
  await expect(page.getByTestId('time-travel')).toHaveText(`at step ${step} of ${lastSeq}`);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', NODE);
  const header = page.getByTestId('run-header');
  await expect(header.getByTestId('copy-link')).toBeVisible();
  for (const name of ['Pause', 'Resume', 'Step', 'Abort', 'Share']) {
    await expect(header.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  // prompts were not shared with this link: no export, and the inspector says why a prompt is missing
  await expect(header.getByTestId('export-run')).toHaveCount(0);
  await expect(page.getByTestId('inspector-prune')).toHaveCount(0);
  // the root made the first model calls
  await page.goto(`/runs/${runId}?node=${rootId}`);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', rootId);
  const call = page.getByTestId('inspector-model-call').first();
  await call.locator('summary').click();
  await expect(call.getByTestId('inspector-prompt-withheld')).toContainText('prompts were not shared with this link');

  // the home page points back to the one run instead of listing the team's
  await page.goto('/');
  await expect(page.getByTestId('shared-note')).toBeVisible();
  await expect(page.getByTestId('runs-table')).toHaveCount(0);
  await page.getByTestId('shared-note').getByRole('link', { name: 'Open it' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));

  // any other run is refused, on the page and by the API
  await page.goto(`/runs/${otherRunId}`);
  await expect(page.getByTestId('run-missing')).toContainText('You may not open this run');
  expect((await trpcQuery(page.request, 'run.byId', { id: otherRunId })).status()).toBe(403);
  expect((await trpcQuery(page.request, 'run.list', {})).status()).toBe(403);
  expect((await trpcMutation(page.request, 'run.pause', { id: runId })).status()).toBe(403);
  await context.close();
});

test('after Revoke the link stops working, for a newcomer and for whoever opened it', async ({ page, browser }) => {
  const holder = await browser.newContext();
  const holderPage = await holder.newPage();
  await holderPage.goto(shareUrl);
  await expect(holderPage.getByTestId('shared-mark')).toBeVisible();
  expect((await trpcQuery(holderPage.request, 'run.byId', { id: runId })).status()).toBe(200);

  await signIn(page.request, member.email, member.password);
  await page.goto(`/runs/${runId}`);
  await page.getByTestId('share-run').click();
  const row = page.getByTestId('share-link').first();
  await expect(row).toHaveAttribute('data-state', 'active');
  await row.getByTestId('share-revoke').click();
  await expect(row).toHaveAttribute('data-state', 'revoked');

  const newcomer = await browser.newContext();
  const newcomerPage = await newcomer.newPage();
  await newcomerPage.goto(shareUrl);
  await expect(newcomerPage).toHaveURL(/\/signin\?link=gone$/);
  await expect(newcomerPage.getByTestId('link-gone')).toContainText('expired or was revoked');
  await newcomer.close();

  const status = (await trpcQuery(holderPage.request, 'run.byId', { id: runId })).status();
  expect([401, 403]).toContain(status);
  await holder.close();
});
