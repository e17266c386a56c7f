// The run's discussion in team mode (issue 34): a member comments on a node and labels it; a viewer's page shows both
// with no way to write (no comment box, no label buttons, no reply, edit or delete) and the API answers the viewer's
// writes with 403, writing nothing; another member may reply but not edit or delete the first's comment, an admin may
// delete it but not edit it; a share link's holder reads the same, read only, and is refused likewise.
// data-testid used: inspector-node (data-node-id), node-discussion, comment, comment-text, comment-author,
//   comment-box, comment-form, comment-submit, comment-reply, comment-edit, comment-delete, label-chip (data-label),
//   node-label (data-label), thought-node, discussion-badge (data-comments, data-labels), drawer-tab-discussion,
//   discussion-panel, discussion-entry, run-comment-form, run-status, shared-mark.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import type { NodeLabel, RunComment } from '../../lib/contract/discussion';
import { addPerson, ok, signIn, startRun, TEAM_ADMIN, TEAM_BASE, trpcMutation, trpcQuery, waitForStatus } from './team';

test.describe.configure({ mode: 'serial' });

const NODE = 'n1';
const TEXT = 'This branch keeps 13 and 9 apart: the only one that can still reach 24.';

let admin: APIRequestContext;
let member: { email: string; password: string };
let other: { email: string; password: string };
let viewer: { email: string; password: string };
let runId: string;

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(admin, TEAM_ADMIN.email, TEAM_ADMIN.password);
  member = await addPerson(admin, 'member', 'member');
  other = await addPerson(admin, 'other', 'member');
  viewer = await addPerson(admin, 'viewer', 'viewer');
  runId = await startRun(admin, 0, 3);
  await waitForStatus(admin, runId, 'finished');
});

test.afterAll(async () => {
  await admin.dispose();
});

async function signedInPage(page: Page, person: { email: string; password: string }) {
  await signIn(page.request, person.email, person.password);
  await page.goto(`/runs/${runId}?node=${NODE}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', NODE);
}

const discussion = (page: Page) => page.getByTestId('node-discussion');
/** The name a new user goes by (no name given: their email's local part). */
const nameOf = (person: { email: string }) => person.email.split('@')[0] ?? person.email;
const listed = async (request: APIRequestContext) => ({
  comments: await ok<RunComment[]>(trpcQuery(request, 'comment.list', { runId })),
  labels: await ok<NodeLabel[]>(trpcQuery(request, 'label.list', { runId })),
});

test('a member comments and labels a node', async ({ page }) => {
  await signedInPage(page, member);
  await discussion(page).getByTestId('comment-box').fill(TEXT);
  await discussion(page).getByTestId('comment-form').getByTestId('comment-submit').click();
  await expect(discussion(page).getByTestId('comment-text')).toHaveText(TEXT);
  await expect(discussion(page).getByTestId('comment-author')).toHaveText(nameOf(member));
  await discussion(page).locator('[data-testid=label-chip][data-label="good thought"]').click();
  await expect(discussion(page).locator('[data-testid=node-label][data-label="good thought"]')).toBeVisible();
  // their own comment: edit and delete are theirs
  await expect(discussion(page).getByTestId('comment-edit')).toBeVisible();
  await expect(discussion(page).getByTestId('comment-delete')).toBeVisible();
});

test("a viewer reads the discussion with no way to write, and the API refuses the viewer's writes", async ({
  page,
}) => {
  await signedInPage(page, viewer);
  await expect(discussion(page).getByTestId('comment-text')).toHaveText(TEXT);
  await expect(discussion(page).locator('[data-testid=node-label][data-label="good thought"]')).toBeVisible();
  const badge = page.locator(`[data-testid=thought-node][data-node-id=${NODE}] [data-testid=discussion-badge]`);
  await expect(badge).toHaveAttribute('data-comments', '1');
  await expect(badge).toHaveAttribute('data-labels', '1');
  for (const control of [
    'comment-box',
    'comment-form',
    'label-chip',
    'comment-reply',
    'comment-edit',
    'comment-delete',
  ]) {
    await expect(page.getByTestId(control)).toHaveCount(0);
  }
  // the keys do nothing for a reader
  await page.getByTestId('inspector-node').click();
  await page.keyboard.press('2');
  await page.getByTestId('drawer-tab-discussion').click();
  await expect(page.getByTestId('discussion-panel').getByTestId('discussion-entry')).toHaveCount(2);
  await expect(page.getByTestId('run-comment-form')).toHaveCount(0);

  const before = await listed(admin);
  const [comment] = before.comments;
  const refused = [
    await trpcMutation(page.request, 'comment.add', { runId, nodeId: NODE, text: 'a viewer writes' }),
    await trpcMutation(page.request, 'comment.add', { runId, text: 'on the run' }),
    await trpcMutation(page.request, 'comment.edit', { id: comment?.id, text: 'changed' }),
    await trpcMutation(page.request, 'comment.delete', { id: comment?.id }),
    await trpcMutation(page.request, 'label.set', { runId, nodeId: NODE, label: 'evaluator wrong' }),
    await trpcMutation(page.request, 'label.remove', { runId, nodeId: NODE, label: 'good thought' }),
  ];
  expect(refused.map((r) => r.status())).toEqual([403, 403, 403, 403, 403, 403]);
  expect(await listed(admin)).toEqual(before);
});

test('another member may reply but not edit or delete; an admin may delete but not edit', async ({ page }) => {
  await signedInPage(page, other);
  const first = discussion(page).getByTestId('comment').first();
  await expect(first.getByTestId('comment-reply')).toBeVisible();
  await expect(first.getByTestId('comment-edit')).toHaveCount(0);
  await expect(first.getByTestId('comment-delete')).toHaveCount(0);
  // another's label is on, but not theirs to take off: the server's refusal is shown in its words
  await discussion(page).locator('[data-testid=label-chip][data-label="good thought"]').click();
  await expect(page.getByTestId('label-error')).toHaveText(
    `"good thought" is already on ${NODE}, put there by ${nameOf(member)}`,
  );
  const [comment] = (await listed(admin)).comments;
  expect((await trpcMutation(page.request, 'comment.edit', { id: comment?.id, text: 'mine now' })).status()).toBe(403);

  const adminPage = await page.context().browser()!.newContext();
  const asAdmin = await adminPage.newPage();
  await signedInPage(asAdmin, TEAM_ADMIN);
  const adminFirst = discussion(asAdmin).getByTestId('comment').first();
  await expect(adminFirst.getByTestId('comment-delete')).toBeVisible();
  await expect(adminFirst.getByTestId('comment-edit')).toHaveCount(0);
  await adminPage.close();
});

test('a share link’s holder reads the discussion, read only, and is refused writes', async ({ browser }) => {
  // the run is the admin's: theirs to share
  const { path } = await ok<{ path: string }>(trpcMutation(admin, 'shares.create', { runId, nodeId: NODE }));

  const holder = await browser.newContext();
  const page = await holder.newPage();
  await page.goto(`${TEAM_BASE}${path}`);
  await expect(page.getByTestId('shared-mark')).toBeVisible();
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', NODE);
  await expect(discussion(page).getByTestId('comment-text')).toHaveText(TEXT);
  for (const control of ['comment-box', 'label-chip', 'comment-reply', 'comment-edit', 'comment-delete']) {
    await expect(page.getByTestId(control)).toHaveCount(0);
  }
  const before = await listed(admin);
  expect(
    (await trpcMutation(page.request, 'comment.add', { runId, nodeId: NODE, text: 'a holder writes' })).status(),
  ).toBe(403);
  expect(
    (await trpcMutation(page.request, 'label.set', { runId, nodeId: NODE, label: 'evaluator wrong' })).status(),
  ).toBe(403);
  expect(await listed(admin)).toEqual(before);
  await holder.close();
});
