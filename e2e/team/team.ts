/**
 * The team-mode browser tests' one place for their server's address and first admin, and small helpers to call the
 * tRPC API as a signed-in person (a Playwright APIRequestContext, so the person's cookies go along: a page's
 * `page.request` shares the page's). Writes carry the JSON content type and a same-origin Origin, as a page's
 * own fetches do (the server's origin guard refuses anything else). The server's settings are lib/harness's
 * (team-server.ts), shared with playwright.config.ts.
 */
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { TEAM_BASE } from '../../lib/harness/index';

export { TEAM_ADMIN, TEAM_BASE } from '../../lib/harness/index';

/** An email no earlier test of this server used (the database lives as long as the test run). */
export function uniqueEmail(who: string): string {
  return `${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@e2e.test`;
}

const WRITE_HEADERS = { 'content-type': 'application/json', origin: TEAM_BASE };

export function trpcMutation(request: APIRequestContext, path: string, input: unknown): Promise<APIResponse> {
  return request.post(`${TEAM_BASE}/api/trpc/${path}`, { headers: WRITE_HEADERS, data: { json: input } });
}

export function trpcQuery(
  request: APIRequestContext,
  path: string,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<APIResponse> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return request.get(`${TEAM_BASE}/api/trpc/${path}${query}`, { headers });
}

/** The procedure's result, or a failed expectation that says the server's answer. */
export async function ok<T>(response: Promise<APIResponse>): Promise<T> {
  const res = await response;
  const text = await res.text();
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${text.slice(0, 300)}`).toBe(true);
  return (JSON.parse(text) as { result: { data: { json: T } } }).result.data.json;
}

export async function signIn(request: APIRequestContext, email: string, password: string): Promise<void> {
  await ok(trpcMutation(request, 'auth.signIn', { email, password }));
}

export type Role = 'admin' | 'member' | 'viewer';

/** A new person with `role` (made by the admin's request context), and their password. */
export async function addPerson(
  admin: APIRequestContext,
  who: string,
  role: Role,
): Promise<{ email: string; password: string }> {
  const person = { email: uniqueEmail(who), password: `${who}-password-e2e` };
  await ok(trpcMutation(admin, 'users.create', { ...person, role }));
  return person;
}

/** A small Game of 24 run on the simulated model; `latencyMs` keeps it running for a while when large. */
export async function startRun(request: APIRequestContext, latencyMs: number, seed = 3): Promise<string> {
  const run = await ok<{ id: string }>(
    trpcMutation(request, 'run.create', {
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed, latencyMs },
    }),
  );
  return run.id;
}

export async function waitForStatus(request: APIRequestContext, runId: string, status: string): Promise<void> {
  await expect
    .poll(async () => (await ok<{ status: string }>(trpcQuery(request, 'run.byId', { id: runId }))).status, {
      timeout: 60_000,
    })
    .toBe(status);
}
