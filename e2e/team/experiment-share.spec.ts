// An experiment's share link on a team server: a member makes one from the experiment's page; someone without an
// account opens it in a fresh browser and sees that experiment and the run of one of its cells, read only (no
// pause, no share), and is refused the lists, other experiments and other runs; a viewer sees the page but not Share.
// data-testid used: experiment-share, share-dialog, share-create, share-url, share-link, experiment-page,
//   experiment-name, experiment-pause, grid-cell, run-header, shared-note, configuration-row.
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { addPerson, ok, signIn, startRun, TEAM_ADMIN, TEAM_BASE, trpcMutation, trpcQuery } from './team';

let admin: APIRequestContext;
let member: { email: string; password: string };
let viewer: { email: string; password: string };
let experimentId: string;
let otherRunId: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(admin, TEAM_ADMIN.email, TEAM_ADMIN.password);
  member = await addPerson(admin, 'member', 'member');
  viewer = await addPerson(admin, 'viewer', 'viewer');
  const memberApi = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(memberApi, member.email, member.password);
  ({ id: experimentId } = await ok<{ id: string }>(
    trpcMutation(memberApi, 'experiment.create', {
      name: 'shared: beam 1 vs 3',
      taskId: 'game24',
      items: ['4 9 10 13', '1 1 4 6', '2 7 8 8'],
      configurations: [
        { label: 'beam 1', config: { beamWidth: 1 }, model: { provider: 'simulated', seed: 1, latencyMs: 0 } },
        { label: 'beam 3', config: { beamWidth: 3 }, model: { provider: 'simulated', seed: 1, latencyMs: 0 } },
      ],
    }),
  ));
  await expect
    .poll(
      async () => (await ok<{ status: string }>(trpcQuery(memberApi, 'experiment.byId', { id: experimentId }))).status,
      { timeout: 60_000 },
    )
    .toBe('finished');
  otherRunId = await startRun(admin, 0, 6);
  await memberApi.dispose();
});

test.afterAll(async () => {
  await admin.dispose();
});

let shareUrl: string;

test('a viewer reads the experiment without Share; its maker shares it', async ({ page, browser }) => {
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage.request, viewer.email, viewer.password);
  await viewerPage.goto(`/experiments/${experimentId}`);
  await expect(viewerPage.getByTestId('configuration-row')).toHaveCount(2);
  await expect(viewerPage.getByTestId('experiment-share')).toHaveCount(0);
  await viewerContext.close();

  await signIn(page.request, member.email, member.password);
  await page.goto(`/experiments/${experimentId}`);
  await page.getByTestId('experiment-share').click();
  const dialog = page.getByTestId('share-dialog');
  await dialog.getByTestId('share-create').click();
  const url = dialog.getByTestId('share-url');
  await expect(url).toHaveValue(new RegExp(`^${TEAM_BASE}/share/`));
  shareUrl = await url.inputValue();
  await expect(dialog.getByTestId('share-link')).toHaveCount(1);
  await expect(dialog.getByTestId('share-link')).toContainText(member.email);
  await page.screenshot({ path: test.info().outputPath('experiment-share-dialog.png') });
});

test('someone without an account opens the link: the experiment and its cells’ runs, read only, nothing else', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(shareUrl);
  await expect(page).toHaveURL(new RegExp(`/experiments/${experimentId}$`));
  await expect(page.getByTestId('experiment-name')).toHaveText('shared: beam 1 vs 3');
  await expect(page.getByTestId('grid-cell')).toHaveCount(6);
  for (const id of ['experiment-share', 'experiment-pause', 'experiment-abort']) {
    await expect(page.getByTestId(id)).toHaveCount(0);
  }
  // a cell opens its run, read only
  await page.getByTestId('grid-cell').first().click();
  await expect(page).toHaveURL(/\/runs\/[^/]+\?node=/);
  const header = page.getByTestId('run-header');
  await expect(header).toBeVisible();
  for (const name of ['Pause', 'Resume', 'Step', 'Abort', 'Share']) {
    await expect(header.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  // the home page points back to the experiment
  await page.goto('/');
  await expect(page.getByTestId('shared-note')).toContainText('experiment');
  // and nothing else opens
  expect((await trpcQuery(page.request, 'run.byId', { id: otherRunId })).status()).toBe(403);
  expect((await trpcQuery(page.request, 'experiment.list', undefined)).status()).toBe(403);
  expect((await trpcQuery(page.request, 'run.list', {})).status()).toBe(403);
  expect((await trpcMutation(page.request, 'experiment.pause', { id: experimentId })).status()).toBe(403);
  await context.close();
});
