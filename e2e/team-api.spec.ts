// Team mode checked from outside, over real HTTP against the production server with ARBORIST_AUTH=1: nobody gets
// 401, a viewer gets 403 and the server's model key goes nowhere for them, a cross-site write is refused on every
// mutating route (the list is read from the router, so a new mutation is covered the day it is added), and a share
// link's cookie opens one run.
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { appRouter } from '../lib/server/index';
import { startFakeOpenAI } from '../lib/models/testing';
import { game24Handler } from '../lib/tasks/testing/game24-openai';
import { freePort, startServer, waitUntilUp } from '../lib/harness/index';

const KEY = 'sk-test-SECRET-team-4411';
const DB = 'data/e2e-team-api.db';
const ADMIN = { email: 'admin@team.test', password: 'admin password 123' };
const PASSWORD = 'teammate password 1';

/** The router's mutations by path ("run.delete"), read from the router itself. */
const MUTATIONS = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, procedure]) => procedure._def.type === 'mutation')
  .map(([path]) => path);

interface Http {
  status: number;
  text: string;
  body: { result?: { data: { json: unknown } }; error?: { json: { message: string; data: { code: string } } } };
  headers: Headers;
}

function client(base: string) {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value) jar.set(name!, value);
      else jar.delete(name!);
    }
  };
  const send = async (path: string, init: RequestInit = {}): Promise<Http> => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(jar.size ? { cookie: cookie() } : {}), ...(init.headers as Record<string, string>) },
    });
    keep(res);
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('application/json');
    return { status: res.status, text, body: json && text ? JSON.parse(text) : {}, headers: res.headers };
  };
  return {
    jar,
    send,
    mutate: (path: string, input: unknown, headers: Record<string, string> = {}) =>
      send(`/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, ...headers },
        body: JSON.stringify({ json: input }),
      }),
    query: (path: string, input: unknown = {}) =>
      send(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`),
  };
}

const data = <T>(http: Http) => http.body.result?.data.json as T;

test('team mode over HTTP: 401 for nobody, 403 for a viewer and for cross-site writes, the key only for runs a member starts, a share link opens one run', async () => {
  test.setTimeout(120_000);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  const fake = await startFakeOpenAI(game24Handler(7));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(port, {
    DATABASE_URL: `file:./${DB}`,
    ARBORIST_DEMO: '1',
    ARBORIST_AUTH: '1',
    ARBORIST_SECRET: 'e2e secret for signing share links, long enough',
    ARBORIST_ADMIN_EMAIL: ADMIN.email,
    ARBORIST_ADMIN_PASSWORD: ADMIN.password,
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: fake.baseURL,
  });
  try {
    await waitUntilUp(server, base);
    const nobody = client(base);
    const admin = client(base);
    expect((await admin.mutate('auth.signIn', ADMIN)).status).toBe(200);
    expect([...admin.jar.keys()]).toEqual(['arborist_session']);
    for (const role of ['viewer', 'member'] as const) {
      const made = await admin.mutate('users.create', { email: `${role}@team.test`, role, password: PASSWORD });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    const viewer = client(base);
    const member = client(base);
    await viewer.mutate('auth.signIn', { email: 'viewer@team.test', password: PASSWORD });
    await member.mutate('auth.signIn', { email: 'member@team.test', password: PASSWORD });

    const runs = data<{ items: { id: string }[] }>(await admin.query('run.list')).items;
    expect(runs).toHaveLength(1); // the demo
    const demo = runs[0]!.id;

    // nobody: 401 on reads, writes and the file routes
    expect((await nobody.query('run.list')).status).toBe(401);
    expect((await nobody.query('run.byId', { id: demo })).status).toBe(401);
    expect((await nobody.mutate('run.delete', { id: demo })).status).toBe(401);
    expect((await nobody.send(`/api/runs/${demo}/export`)).status).toBe(401);
    for (const file of ['events.ndjson', 'snapshot.json', 'history.ndjson']) {
      expect((await nobody.send(`/api/runs/${demo}/${file}`)).status, file).toBe(401);
    }
    const anonymousImport = await nobody.send('/api/runs/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymousImport.status).toBe(401);

    // a cross-site write is refused on every mutating route, even with an admin's cookie, and changes nothing
    expect(MUTATIONS).toEqual(expect.arrayContaining(['run.create', 'run.delete', 'node.prune', 'shares.create']));
    for (const path of MUTATIONS) {
      const crossSite = await admin.mutate(path, { id: demo }, { origin: 'https://evil.example' });
      expect(crossSite.status, path).toBe(403);
      const formPost = await admin.send(`/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: base },
        body: JSON.stringify({ json: { id: demo } }),
      });
      expect(formPost.status, path).toBe(415);
    }
    const crossImports: Record<string, string>[] = [
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
      { 'content-type': 'application/json', origin: 'https://evil.example' },
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      { 'content-type': 'text/plain' },
    ];
    for (const headers of crossImports) {
      const crossImport = await admin.send('/api/runs/import', { method: 'POST', headers, body: '{}' });
      expect(crossImport.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(403);
      expect(crossImport.status).toBeLessThan(416);
    }
    expect(data<{ items: unknown[] }>(await admin.query('run.list')).items).toHaveLength(1);

    // a viewer reads, but every write is 403, and a run on the server's key is never started for them
    expect(data<{ items: unknown[] }>(await viewer.query('run.list')).items).toHaveLength(1);
    const openai = { provider: 'openai', baseUrlPreset: 'openai', model: 'gpt-4o-mini' };
    const viewerRun = await viewer.mutate('run.create', { taskId: 'game24', goal: '4 9 10 13', model: openai });
    expect(viewerRun.status).toBe(403);
    expect(viewerRun.body.error?.json.message).toMatch(/viewers have read-only access/);
    expect((await viewer.mutate('run.pause', { id: demo })).status).toBe(403);
    expect((await viewer.mutate('node.prune', { runId: demo, nodeId: 'n1' })).status).toBe(403);
    expect((await viewer.mutate('run.delete', { id: demo })).status).toBe(403);
    const viewerImport = await viewer.send('/api/runs/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: '{}',
    });
    expect(viewerImport.status).toBe(403);
    expect(fake.requests).toHaveLength(0);

    // a member's run on the openai preset: the key goes to OPENAI_BASE_URL's server, with the member as owner
    const memberRun = await member.mutate('run.create', { taskId: 'game24', goal: '4 9 10 13', model: openai });
    expect(memberRun.status, JSON.stringify(memberRun.body)).toBe(200);
    const { id } = data<{ id: string }>(memberRun);
    await expect
      .poll(async () => data<{ status: string }>(await member.query('run.byId', { id })).status, { timeout: 60_000 })
      .toBe('finished');
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

    // model servers are the operator's: no custom URL for a member; an admin's may not name a private address
    const customRun = (baseURL: string) => ({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'openai', baseUrlPreset: 'custom', baseURL, model: 'gpt-4o-mini' },
    });
    expect((await member.mutate('run.create', customRun('https://api.example.com/v1'))).status).toBe(403);
    for (const url of ['http://127.0.0.1:9/v1', 'http://10.0.0.1/v1', 'http://169.254.169.254/latest']) {
      const refused = await admin.mutate('run.create', customRun(url));
      expect(refused.status, url).toBe(400);
      expect(refused.body.error?.json.message).toMatch(/private, loopback, link-local or reserved address/);
    }

    // a share link: its cookie opens that run and nothing else, without prompts unless allowed; revoked, it stops
    const link = data<{ id: string; path: string }>(
      await member.mutate('shares.create', { runId: id, step: 3, nodeId: 'n1' }),
    );
    const guest = client(base);
    const opened = await guest.send(link.path);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/runs/${id}?step=3&node=n1`);
    expect((await guest.query('run.byId', { id })).status).toBe(200);
    expect((await guest.query('run.byId', { id: demo })).status).toBe(403);
    expect((await guest.query('run.list')).status).toBe(403);
    expect((await guest.send(`/api/runs/${id}/export`)).status).toBe(403);
    // the run page's two reads: this run, not another
    for (const file of ['snapshot.json', 'history.ndjson']) {
      expect((await guest.send(`/api/runs/${id}/${file}`)).status, file).toBe(200);
      expect((await guest.send(`/api/runs/${demo}/${file}`)).status, file).toBe(403);
    }
    const log = await fetch(`${base}/api/runs/${id}/events.ndjson`, {
      headers: { cookie: `arborist_share=${guest.jar.get('arborist_share')}` },
    });
    const calls = (await log.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: { messages?: unknown[] } })
      .filter((e) => e.type === 'model.called');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((e) => e.payload.messages?.length === 0)).toBe(true);
    expect((await guest.mutate('run.pause', { id })).status).toBe(403);
    await member.mutate('shares.revoke', { id: link.id });
    expect((await guest.query('run.byId', { id })).status).toBe(401);
    const reopened = await client(base).send(link.path);
    expect(reopened.headers.get('location')).toBe('/signin?link=gone');

    // nothing the browser can fetch holds the key
    const files = ['export', 'events.ndjson', 'snapshot.json', 'history.ndjson'].map(
      (file) => `/api/runs/${id}/${file}`,
    );
    for (const path of [...files, '/api/trpc/backend.list']) {
      const fetched = await member.send(path);
      expect(fetched.status, path).toBe(200);
      expect(fetched.text).not.toContain(KEY);
    }
  } finally {
    server.kill('SIGKILL');
    await fake.close();
  }
});
