// /settings as an admin uses it: sign in through the form, add a viewer and a member (each then signs in with the
// role given), disable one (their open page goes to sign-in) and enable them again, refuse to demote the last admin
// in the server's words, and make an API key that works as a Bearer token for run.list until it is revoked.
// data-testid used: signin-form, settings-link, users-panel, add-person, add-person-submit, add-person-done,
//   user-row (data-email), user-role, users-error, key-create, new-key-value, key-row (data-name), key-revoke,
//   key-usage, session-role.
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { ok, signIn, TEAM_ADMIN, TEAM_BASE, trpcQuery, uniqueEmail } from './team';

test('an admin adds a viewer and a member, who then sign in with those roles', async ({ page }) => {
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/signin\?next=%2Fsettings$/);
  await page.getByLabel('Email').fill(TEAM_ADMIN.email);
  await page.getByLabel('Password').fill(TEAM_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('session-role')).toHaveText('admin');

  const people = [
    { email: uniqueEmail('new-viewer'), role: 'viewer' },
    { email: uniqueEmail('new-member'), role: 'member' },
  ];
  const form = page.getByTestId('add-person');
  for (const person of people) {
    await form.getByLabel('Email').fill(person.email);
    await form.getByLabel('Role').selectOption(person.role);
    await form.getByLabel('First password').fill('first-password-e2e');
    await form.getByTestId('add-person-submit').click();
    await expect(page.getByTestId('add-person-done')).toContainText(`Added ${person.email} as ${person.role}`);
    const row = page.locator(`[data-testid=user-row][data-email="${person.email}"]`);
    await expect(row.getByTestId('user-role')).toHaveValue(person.role);
    await expect(row.getByTestId('user-status')).toHaveText('active');
  }

  for (const person of people) {
    const api = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
    await signIn(api, person.email, 'first-password-e2e');
    const me = await ok<{ who: { role: string } }>(trpcQuery(api, 'auth.me', undefined));
    expect(me.who.role).toBe(person.role);
    await api.dispose();
  }

  // disabling a person ends their session: their open page goes to sign-in at its next request (the list polls)
  const viewer = people[0]!;
  const viewerContext = await page.context().browser()!.newContext();
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage.request, viewer.email, 'first-password-e2e');
  await viewerPage.goto('/');
  await expect(viewerPage.getByTestId('session-role')).toHaveText('viewer');
  // the list is there (with runs or without): it asks the server again every few seconds
  await expect(viewerPage.locator('[data-testid=runs-table], [data-testid=runs-empty]')).toBeVisible();
  const viewerRow = page.locator(`[data-testid=user-row][data-email="${viewer.email}"]`);
  await viewerRow.getByTestId('user-toggle').click();
  await expect(viewerRow.getByTestId('user-status')).toHaveText('disabled');
  await expect(viewerPage).toHaveURL(/\/signin$/, { timeout: 30_000 });
  await viewerContext.close();
  await viewerRow.getByTestId('user-toggle').click();
  await expect(viewerRow.getByTestId('user-status')).toHaveText('active');

  // the one admin cannot demote themself: the server's words, and the role stays
  const mine = page.locator(`[data-testid=user-row][data-email="${TEAM_ADMIN.email}"]`);
  await mine.getByTestId('user-role').selectOption('member');
  await expect(page.getByTestId('users-error')).toContainText('last admin');
  await expect(mine.getByTestId('user-role')).toHaveValue('admin');
});

test('an API key made on /settings works as a Bearer token until it is revoked', async ({ page }) => {
  await signIn(page.request, TEAM_ADMIN.email, TEAM_ADMIN.password);
  await page.goto('/');
  await page.getByTestId('settings-link').click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('key-usage')).toContainText(
    `curl -H "Authorization: Bearer ak_..." ${TEAM_BASE}/api/runs/<id>/events.ndjson`,
  );
  await page.getByLabel('Name', { exact: true }).fill('e2e script');
  await page.getByTestId('key-create').click();
  const key = (await page.getByTestId('new-key-value').textContent()) ?? '';
  expect(key).toMatch(/^ak_/);
  await expect(page.getByTestId('new-key')).toContainText('will not be shown again');
  const row = page.locator('[data-testid=key-row][data-name="e2e script"]');
  await expect(row).toContainText(key.slice(0, 9));

  // a script: no cookies, the key alone
  const script = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  const bearer = { authorization: `Bearer ${key}` };
  expect((await trpcQuery(script, 'run.list', {}, bearer)).status()).toBe(200);
  expect((await trpcQuery(script, 'run.list', {})).status()).toBe(401);

  await row.getByTestId('key-revoke').click();
  await expect(row).toContainText('revoked');
  expect((await trpcQuery(script, 'run.list', {}, bearer)).status()).toBe(401);
  await script.dispose();
});
