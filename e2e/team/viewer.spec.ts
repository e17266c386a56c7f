// Team mode for a viewer and for nobody: a viewer reads the runs list and a run with every steering control
// absent (not disabled), and the API refuses their commands with 403 whatever the page shows; nobody signed in gets
// 401 and is sent to sign-in, which brings them back to the page they asked for; Sign out ends the session.
// data-testid used: signin-form, session-email, session-role, run-status, run-header, thought-node, node-menu,
//   inspector-node, inspector-prune, inspector-expand, share-run, export-run, copy-link, runs-table, run-row,
//   run-delete, start-run, import-drop-zone, drawer-tab-breakpoints, breakpoints-read-only, breakpoint-add.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { addPerson, signIn, startRun, TEAM_ADMIN, TEAM_BASE, trpcMutation, trpcQuery, waitForStatus } from './team';

let admin: APIRequestContext;
let viewer: { email: string; password: string };
let runId: string;

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(admin, TEAM_ADMIN.email, TEAM_ADMIN.password);
  viewer = await addPerson(admin, 'viewer', 'viewer');
  // slow, so it is still running while the viewer looks: its commands would be live for a member
  runId = await startRun(admin, 2_500);
  await waitForStatus(admin, runId, 'running');
});

test.afterAll(async () => {
  await trpcMutation(admin, 'run.abort', { id: runId });
  await admin.dispose();
});

async function signInWithForm(page: Page, email: string, password: string) {
  await expect(page.getByTestId('signin-form')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('nobody signed in is sent to sign-in, and the API answers 401', async ({ page }) => {
  await page.goto(`/runs/${runId}?step=3`);
  await expect(page).toHaveURL(
    (url) => url.pathname === '/signin' && url.searchParams.get('next') === `/runs/${runId}?step=3`,
  );

  await expect(page.getByTestId('signin-form')).toBeVisible();
  expect((await trpcQuery(page.request, 'run.list', {})).status()).toBe(401);
  expect((await trpcQuery(page.request, 'run.byId', { id: runId })).status()).toBe(401);
  expect((await trpcMutation(page.request, 'run.pause', { id: runId })).status()).toBe(401);
});

test('a wrong password is refused in the server’s words', async ({ page }) => {
  await page.goto('/signin');
  await signInWithForm(page, viewer.email, 'not-the-password');
  await expect(page.getByTestId('signin-error')).toHaveText('wrong email or password');
  await expect(page).toHaveURL(/\/signin$/);
});

test('a viewer reads a running run with every steering control absent', async ({ page }) => {
  await page.goto(`/runs/${runId}`);
  await signInWithForm(page, viewer.email, viewer.password);
  // sign-in brings them back to the run they asked for
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByTestId('session-email')).toHaveText(viewer.email);
  await expect(page.getByTestId('session-role')).toHaveText('viewer');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  const header = page.getByTestId('run-header');
  await expect(header.getByTestId('copy-link')).toBeVisible();
  await expect(header.getByTestId('export-run')).toBeVisible(); // a viewer reads whole prompts, so exports
  for (const name of ['Pause', 'Resume', 'Step', 'Abort']) {
    await expect(header.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByTestId('share-run')).toHaveCount(0);

  // the canvas menu keeps what reads (copy the id), and drops the commands
  const node = page.getByTestId('thought-node').first();
  await node.click({ button: 'right' });
  const menu = page.getByTestId('node-menu');
  await expect(menu.getByRole('menuitem', { name: 'Copy node id' })).toBeVisible();
  await expect(
    menu.getByRole('menuitem', { name: /Prune branch|Expand again|Run to here|Fork from here/ }),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');

  // the inspector shows the node without its commands
  await node.click();
  await expect(page.getByTestId('inspector-node')).toBeVisible();
  await expect(page.getByTestId('inspector-prune')).toHaveCount(0);
  await expect(page.getByTestId('inspector-expand')).toHaveCount(0);

  // the run's breakpoints are there to read, not to change
  await page.getByTestId('drawer-tab-breakpoints').click();
  await expect(page.getByTestId('breakpoints-read-only')).toHaveText('You may read this run, not steer it.');
  await expect(page.getByTestId('breakpoint-add')).toHaveCount(0);

  // the runs list: rows to read, no form, no import, no delete
  await page.goto('/');
  await expect(page.locator(`[data-testid=run-row][data-run-id="${runId}"]`)).toBeVisible();
  await expect(page.getByTestId('session-role')).toHaveText('viewer');
  await expect(page.getByTestId('start-run')).toHaveCount(0);
  await expect(page.getByTestId('import-drop-zone')).toHaveCount(0);
  await expect(page.getByTestId('run-delete')).toHaveCount(0);

  // Sign out ends the session: sign-in again, and the API no longer knows them
  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(/\/signin$/);
  expect((await trpcQuery(page.request, 'run.list', {})).status()).toBe(401);
});

test('the API refuses a viewer’s commands with 403', async ({ page }) => {
  await signIn(page.request, viewer.email, viewer.password);
  expect((await trpcQuery(page.request, 'run.byId', { id: runId })).status()).toBe(200);
  expect((await trpcMutation(page.request, 'run.pause', { id: runId })).status()).toBe(403);
  expect(
    (
      await trpcMutation(page.request, 'run.create', {
        taskId: 'game24',
        goal: '1 2 3 4',
        model: { provider: 'simulated', seed: 1, latencyMs: 0 },
      })
    ).status(),
  ).toBe(403);
  expect((await trpcMutation(page.request, 'node.prune', { runId, nodeId: 'n1' })).status()).toBe(403);
  const breakpoints = [{ id: 'bp-1', enabled: true, condition: { kind: 'backtrack' } }];
  expect((await trpcMutation(page.request, 'run.setBreakpoints', { id: runId, breakpoints })).status()).toBe(403);
  const imported = await page.request.post(`${TEAM_BASE}/api/runs/import?name=x.json`, {
    headers: { 'content-type': 'application/json', origin: TEAM_BASE },
    data: { format: 'arborist', runs: [] },
  });
  expect(imported.status()).toBe(403);
  // and the run went on: nothing the viewer sent reached it
  expect((await trpcQuery(admin, 'run.byId', { id: runId })).status()).toBe(200);
});
