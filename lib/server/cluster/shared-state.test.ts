// What a team server keeps in its database so it holds whichever instance a request reaches (no sticky sessions):
// two instances of a cluster on one real PostgreSQL database, in one process. The sign-in throttle (five wrong
// passwords on A, five on B, and the eleventh is refused on both), the import limit per person (an import running on
// A refuses the same person's second on B), and the setup code (printed by A, accepted once on B, refused after).
import { readFileSync } from 'node:fs';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../contract/access';
import { prepareTeamMode } from '../auth/setup';
import { createUser } from '../auth/users';
import { IMPORT_RUNNING_MESSAGE, importRunsResponse } from '../http/run-files';
import { acquireImportSlot } from '../imports/import-jobs';
import { createContextInner } from '../trpc/context';
import { createCaller } from '../trpc/routers/root';
import { clusterPerTest, type TestInstance } from '../testing/cluster';
import { TEST_TEAM_AUTH as TEAM } from '../testing/context';

const clusters = clusterPerTest();

const SAMPLE = new URL('../../formats/fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);

const nobody = (instance: TestInstance) =>
  createCaller(
    createContextInner(instance, {
      who: { kind: 'anonymous' } satisfies Principal,
      auth: TEAM,
      requestHeaders: null,
      resHeaders: new Headers(),
    }),
  );

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`;
  }
}

async function twoInstances() {
  const db = await clusters.database();
  const a = await db.start('instance-a');
  const b = await db.start('instance-b');
  return { db, a, b };
}

describe('state shared through the database by two instances', () => {
  it('five wrong passwords on A and five on B: the eleventh is refused on both, even the right one', async () => {
    const { a, b } = await twoInstances();
    const password = 'correct horse battery';
    await createUser(a.prisma, { email: 'member@team.test', role: 'member', password });
    const signIn = (instance: TestInstance, pw: string) =>
      codeOf(nobody(instance).auth.signIn({ email: 'Member@team.test', password: pw }));
    for (let i = 0; i < 5; i++) expect(await signIn(a, `wrong on a ${i}`)).toBe('UNAUTHORIZED');
    for (let i = 0; i < 5; i++) expect(await signIn(b, `wrong on b ${i}`)).toBe('UNAUTHORIZED');
    // the count is the database's (both instances share this process, so memory would be shared here too)
    expect(await b.prisma.signInThrottle.findUnique({ where: { email: 'member@team.test' } })).toMatchObject({
      attempts: 10,
    });
    expect(await signIn(a, 'wrong again')).toBe('TOO_MANY_REQUESTS');
    expect(await signIn(b, 'wrong again')).toBe('TOO_MANY_REQUESTS');
    expect(await signIn(a, password)).toBe('TOO_MANY_REQUESTS');
    expect(await signIn(b, password)).toBe('TOO_MANY_REQUESTS');
  });

  it('ten wrong passwords at once, half on each instance, then the right one: refused', async () => {
    const { a, b } = await twoInstances();
    const password = 'correct horse battery';
    await createUser(a.prisma, { email: 'racer@team.test', role: 'member', password });
    const outcomes = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        codeOf(nobody(i % 2 ? a : b).auth.signIn({ email: 'racer@team.test', password: `wrong ${i}` })),
      ),
    );
    expect(outcomes.filter((o) => o === 'UNAUTHORIZED')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'TOO_MANY_REQUESTS')).toHaveLength(4);
    expect(await codeOf(nobody(b).auth.signIn({ email: 'racer@team.test', password }))).toBe('TOO_MANY_REQUESTS');
  });

  it("an import running on A refuses the same person's second import on B, until it ends", async () => {
    const { db, a, b } = await twoInstances();
    const post = () =>
      new Request('http://localhost/api/runs/import', {
        method: 'POST',
        body: readFileSync(SAMPLE),
        headers: { 'content-type': 'application/json' },
      });
    const onA = await acquireImportSlot(a.prisma, 'ann', a.id);
    expect(onA.ok).toBe(true);
    // a row naming A (both instances share this process, so memory would be shared here too)
    expect(await b.prisma.importSlot.findMany({ select: { who: true, instanceId: true } })).toEqual([
      { who: 'ann', instanceId: 'instance-a' },
    ]);
    const refused = await importRunsResponse(b, post(), { who: 'ann', ownerId: null, database: db.url });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: IMPORT_RUNNING_MESSAGE });
    // another person imports on B meanwhile
    expect((await importRunsResponse(b, post(), { who: 'bob', database: db.url })).status).toBe(200);
    if (onA.ok) await onA.release();
    expect((await importRunsResponse(b, post(), { who: 'ann', database: db.url })).status).toBe(200);
    expect(await b.prisma.importSlot.count()).toBe(0);
  });

  it('the setup code A printed is accepted once on B, and refused the second time on either', async () => {
    const { a, b } = await twoInstances();
    const lines: string[] = [];
    await prepareTeamMode(a.prisma, { ARBORIST_SECRET: TEAM.secret }, (line) => lines.push(line));
    const code = /enter the code (\S+) to make/.exec(lines.join('\n'))?.[1] ?? 'none printed';
    expect(await nobody(b).auth.me()).toMatchObject({ setupNeeded: true });
    // what B checks against is the database's row (memory would be shared here: one process)
    expect(await b.prisma.setupCode.count()).toBe(1);
    const setup = (instance: TestInstance, email: string) =>
      codeOf(nobody(instance).auth.setup({ code, email, password: 'a long enough password' }));
    expect(await setup(b, 'first@team.test')).toBe('OK');
    expect(await setup(b, 'second@team.test')).toBe('CONFLICT');
    expect(await setup(a, 'third@team.test')).toBe('CONFLICT');
    expect(await a.prisma.user.findMany({ select: { email: true, role: true } })).toEqual([
      { email: 'first@team.test', role: 'admin' },
    ]);
  });
});
