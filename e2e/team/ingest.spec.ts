// The ingest API in team mode, over real HTTP: nobody (no key) is refused with 401, a member's API key creates and
// streams a run, a viewer's key may not create one, and another member's key may not write into it.
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { addPerson, ok, signIn, TEAM_ADMIN, TEAM_BASE, trpcMutation } from './team';

let admin: APIRequestContext;

test.beforeAll(async () => {
  admin = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(admin, TEAM_ADMIN.email, TEAM_ADMIN.password);
});

test.afterAll(async () => {
  await admin.dispose();
});

/** A new person's API key. */
async function keyOf(role: 'member' | 'viewer'): Promise<string> {
  const person = await addPerson(admin, `ingest-${role}`, role);
  const context = await playwrightRequest.newContext({ baseURL: TEAM_BASE });
  await signIn(context, person.email, person.password);
  const { key } = await ok<{ key: string }>(trpcMutation(context, 'keys.create', { name: 'ingest' }));
  await context.dispose();
  return key;
}

function post(path: string, body: unknown, key?: string) {
  return fetch(`${TEAM_BASE}/api/ingest/runs${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
}

test("refuses a client without an API key, and takes one with a member's key", async () => {
  expect((await post('', { goal: 'no key' })).status).toBe(401);
  const member = await keyOf('member');
  const created = await post('', { goal: 'with a key', task: 'team-tot' }, member);
  expect(created.status).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  expect((await post(`/${runId}/events`, [{ seq: 1, op: 'node', id: 'r', parent: null }])).status).toBe(401);
  const appended = await post(`/${runId}/events`, [{ seq: 1, op: 'node', id: 'r', parent: null }], member);
  expect(appended.status).toBe(200);
  expect(await appended.json()).toMatchObject({ accepted: 1, nextSeq: 2 });

  const viewer = await keyOf('viewer');
  expect((await post('', { goal: 'a viewer' }, viewer)).status).toBe(403);
  const teammate = await keyOf('member');
  expect((await post(`/${runId}/heartbeat`, {}, teammate)).status).toBe(403);
});

/** An OTLP/JSON export of one root span of a new trace. */
function otlpExport(traceId: string) {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'team-agent' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId,
                spanId: '00000000000000a1',
                name: 'search',
                startTimeUnixNano: '1000000',
                endTimeUnixNano: '2000000',
                attributes: [{ key: 'arborist.goal', value: { stringValue: 'a traced team search' } }],
              },
            ],
          },
        ],
      },
    ],
  });
}

test("takes OpenTelemetry traces with a member's API key only: none is a 401, a viewer's a 403", async () => {
  const send = (key?: string) =>
    fetch(`${TEAM_BASE}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
      body: otlpExport(`${Date.now().toString(16).padStart(16, '0')}${'b'.repeat(16)}`),
    });
  expect((await send()).status).toBe(401);
  expect((await send(await keyOf('viewer'))).status).toBe(403);
  const taken = await send(await keyOf('member'));
  expect(taken.status).toBe(200);
  expect(taken.headers.get('content-type')).toBe('application/json');
});
