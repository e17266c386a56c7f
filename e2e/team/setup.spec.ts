// The first start of a team server without ARBORIST_ADMIN_*: every page leads to /setup, which takes the one-time
// code the server printed in its log (a wrong code is refused in the server's words) and makes the first admin,
// signed in at once; afterwards /setup says it is done. Runs its own server on its own port and database.
// data-testid used: setup-form, setup-error, setup-done, session-role, session-email.
import { rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { freePort, startServer, TEAM_ENV, waitUntilUp } from '../../lib/harness/index';

const DB = 'data/e2e-setup.db';
let server: ChildProcess | null = null;
let base = '';
let output = '';

test.beforeAll(async () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // team mode with no first admin in the environment: the setup code goes to the log
  const { ARBORIST_AUTH, ARBORIST_SECRET } = TEAM_ENV;
  server = startServer(
    port,
    {
      DATABASE_URL: `file:./${DB}`,
      ARBORIST_DEMO: '0',
      ARBORIST_AUTH: ARBORIST_AUTH!,
      ARBORIST_SECRET: ARBORIST_SECRET!,
    },
    (text) => (output += text),
  );
  await waitUntilUp(server, base);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
});

test('the first admin is made on /setup with the code from the server log', async ({ page }) => {
  await expect.poll(() => /enter the code (\S+) to make/.exec(output)?.[1] ?? null).not.toBeNull();
  const code = /enter the code (\S+) to make/.exec(output)![1]!;

  // nobody, and no account yet: the runs page leads to setup
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(`${base}/setup`);
  const form = page.getByTestId('setup-form');
  await form.getByLabel('Setup code').fill('0000-0000-0000');
  await form.getByLabel('Email').fill('first@e2e.test');
  await form.getByLabel('Name (optional)').fill('First Admin');
  await form.getByLabel('Password').fill('first-admin-password');
  await form.getByRole('button', { name: 'Make the admin and sign in' }).click();
  await expect(page.getByTestId('setup-error')).toContainText('not the setup code');

  await form.getByLabel('Setup code').fill(code);
  await form.getByRole('button', { name: 'Make the admin and sign in' }).click();
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByTestId('session-email')).toHaveText('first@e2e.test');
  await expect(page.getByTestId('session-role')).toHaveText('admin');
  await expect(page.getByTestId('start-run')).toBeVisible();

  await page.goto(`${base}/setup`);
  await expect(page.getByTestId('setup-done')).toContainText('has its first admin already');
});
