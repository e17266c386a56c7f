// Team mode through createCaller on real SQLite and real PostgreSQL: who may do what to which run, as each role, as a share link's
// holder and as nobody; sign-in, sessions, API keys, share links and the last-admin rule.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../contract/access';
import type { ExplorationEvent } from '../../contract/events';
import { principalFor, userPrincipal } from '../auth/principal';
import { createUser } from '../auth/users';
import { BACKENDS } from '../testing/db';
import { servicesPerTest, type TestServices } from '../testing/services';
import { domainErrorKind } from '../core/errors';
import { runFor } from '../auth/run-access';
import { openShareLinkResponse } from '../http/share-open';
import { createContextInner } from './context';
import { testContext, TEST_TEAM_AUTH as TEAM } from '../testing/context';
import { createCaller } from './routers/root';

const testServices = servicesPerTest();

const game = { taskId: 'game24', goal: '4 9 10 13', model: { provider: 'simulated' as const, seed: 3, latencyMs: 0 } };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`;
  }
}

/** A subscription's events (createCaller yields [id, event, symbol] tuples) until `until` says stop. */
async function collect(iterable: AsyncIterable<unknown>, until: (events: ExplorationEvent[]) => boolean) {
  const events: ExplorationEvent[] = [];
  for await (const item of iterable) {
    events.push((item as [string, ExplorationEvent])[1]);
    if (until(events)) break;
  }
  return events;
}

const as = (s: TestServices, who: Principal, headers?: { req?: Headers; res?: Headers }) =>
  createCaller(
    createContextInner(s, { who, auth: TEAM, requestHeaders: headers?.req ?? null, resHeaders: headers?.res ?? null }),
  );

describe.each(BACKENDS)('team mode (%s)', (backend) => {
  async function team() {
    const s = await testServices.open(backend);
    const password = 'correct horse battery';
    const [admin, member, other, viewer] = await Promise.all(
      (['admin', 'member', 'member', 'viewer'] as const).map((role, i) =>
        createUser(s.prisma, { email: `${role}${i}@team.test`, role, password }),
      ),
    );
    return {
      s,
      password,
      admin: userPrincipal(admin!),
      member: userPrincipal(member!),
      other: userPrincipal(other!),
      viewer: userPrincipal(viewer!),
    };
  }

  describe('team mode: roles on runs', () => {
    it('nobody signed in gets UNAUTHORIZED on every read and write, and can only ask who they are', async () => {
      const { s } = await team();
      const nobody = as(s, { kind: 'anonymous' });
      expect(await codeOf(nobody.run.list({}))).toBe('UNAUTHORIZED');
      expect(await codeOf(nobody.run.byId({ id: 'x' }))).toBe('UNAUTHORIZED');
      expect(await codeOf(nobody.run.create(game))).toBe('UNAUTHORIZED');
      expect(await codeOf(nobody.backend.list())).toBe('UNAUTHORIZED');
      expect(await nobody.auth.me()).toEqual({ mode: 'team', who: { kind: 'anonymous' }, setupNeeded: false });
    });

    it('a viewer reads every run but may not create, steer, fork, delete or share, and the run is untouched', async () => {
      const { s, member, viewer } = await team();
      const { id } = await as(s, member).run.create(game);
      await s.manager.settled(id);
      const v = as(s, viewer);
      expect((await v.run.list({})).items.map((r) => r.id)).toEqual([id]);
      expect((await v.run.byId({ id })).ownerId).toBe(member.kind === 'user' && member.id);
      expect((await v.run.events({ id })).events.length).toBeGreaterThan(0);
      expect(await codeOf(v.run.create(game))).toBe('FORBIDDEN');
      expect(await codeOf(v.run.pause({ id }))).toBe('FORBIDDEN');
      expect(await codeOf(v.run.abort({ id }))).toBe('FORBIDDEN');
      expect(await codeOf(v.node.prune({ runId: id, nodeId: 'n1' }))).toBe('FORBIDDEN');
      expect(await codeOf(v.run.fork({ runId: id, nodeId: 'n1' }))).toBe('FORBIDDEN');
      expect(await codeOf(v.run.delete({ id }))).toBe('FORBIDDEN');
      expect(await codeOf(v.shares.create({ runId: id }))).toBe('FORBIDDEN');
      expect((await v.run.list({})).items).toHaveLength(1);
    });

    it("a member's run records the member as owner and actor; a teammate may steer it but not delete it; an admin may", async () => {
      const { s, admin, member, other } = await team();
      const mine = as(s, member);
      const { id } = await mine.run.create({ ...game, model: { ...game.model, latencyMs: 200 } });
      await as(s, other).run.pause({ id });
      const paused = collect(await mine.run.onEvents({ runId: id }), (ev) => ev.some((e) => e.type === 'steer.pause'));
      const pause = (await paused).find((e) => e.type === 'steer.pause');
      expect(pause?.payload).toEqual({ actor: 'member2@team.test' });
      expect(await codeOf(as(s, other).run.delete({ id }))).toBe('FORBIDDEN');
      await as(s, other).run.abort({ id });
      await s.manager.settled(id);
      expect(await codeOf(as(s, admin).run.delete({ id }))).toBe('OK');
    });

    it("a member deletes their own run and the header's actor name is ignored in team mode", async () => {
      const { s, member } = await team();
      const api = createCaller(createContextInner(s, { who: member, auth: TEAM, actor: 'mallory' }));
      const { id } = await api.run.create(game);
      await s.manager.settled(id);
      const created = (await api.run.events({ id })).events;
      expect(JSON.stringify(created)).not.toContain('mallory');
      expect(await codeOf(api.run.delete({ id }))).toBe('OK');
    });
  });

  describe('team mode: share links', () => {
    async function shared(allowPrompts: boolean) {
      const t = await team();
      const api = as(t.s, t.member);
      const { id } = await api.run.create(game);
      const { id: otherRun } = await api.run.create({ ...game, goal: '1 1 4 6' });
      await Promise.all([t.s.manager.settled(id), t.s.manager.settled(otherRun)]);
      const link = await api.shares.create({ runId: id, step: 5, nodeId: 'n1', allowPrompts });
      const token = link.path.replace('/share/', '');
      const headers = new Headers({ cookie: `arborist_share=${token}` });
      const holder = await principalFor(t.s.prisma, TEAM, headers);
      return { ...t, api, id, otherRun, link, token, holder };
    }

    it('opens its one run read-only and nothing else: no list, no other run, no steering, no prompts unless allowed', async () => {
      const { s, id, otherRun, holder } = await shared(false);
      expect(holder).toMatchObject({ kind: 'share', runId: id, allowPrompts: false });
      const h = as(s, holder);
      expect((await h.run.byId({ id })).id).toBe(id);
      expect(await codeOf(h.run.byId({ id: otherRun }))).toBe('FORBIDDEN');
      expect(await codeOf(h.run.events({ id: otherRun }))).toBe('FORBIDDEN');
      // the page's HTTP reads (snapshot.json, history.ndjson) ask runFor the same question
      expect(await runFor({ prisma: s.prisma, who: holder }, otherRun, 'read').catch(domainErrorKind)).toBe(
        'forbidden',
      );
      expect((await runFor({ prisma: s.prisma, who: holder }, id, 'read')).id).toBe(id);
      expect(await codeOf(h.run.list({}))).toBe('FORBIDDEN');
      expect(await codeOf(h.run.pause({ id }))).toBe('FORBIDDEN');
      expect(await codeOf(h.run.fork({ runId: id, nodeId: 'n1' }))).toBe('FORBIDDEN');
      expect(await codeOf(h.shares.create({ runId: id }))).toBe('FORBIDDEN');
      expect(await h.run.forks({ id })).toEqual([]);
      // the log comes light whatever is asked: model calls without their messages
      const calls = (await h.run.events({ id, light: false })).events.filter((e) => e.type === 'model.called');
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((e) => e.payload.messages.length === 0)).toBe(true);
      expect(await codeOf(h.run.event({ id, seq: calls[0]!.seq }))).toBe('FORBIDDEN');
    });

    it('with prompts allowed, the holder reads whole model calls', async () => {
      const { s, id, holder } = await shared(true);
      const h = as(s, holder);
      const call = (await h.run.events({ id })).events.find((e) => e.type === 'model.called');
      expect(call?.type === 'model.called' && call.payload.messages.length).toBeGreaterThan(0);
    });

    it('is listed on the run with the same URL, and stops working once revoked or expired', async () => {
      const { s, api, id, link, token } = await shared(false);
      const listed = await api.shares.list({ runId: id });
      expect(listed.map((l) => [l.id, l.path, l.step, l.nodeId, l.allowPrompts])).toEqual([
        [link.id, link.path, 5, 'n1', false],
      ]);
      const headers = new Headers({ cookie: `arborist_share=${token}` });
      const later = new Date(Date.now() + 8 * 24 * 3600_000); // the default expiry is 7 days
      expect((await principalFor(s.prisma, TEAM, headers, later)).kind).toBe('anonymous');
      await api.shares.revoke({ id: link.id });
      expect((await principalFor(s.prisma, TEAM, headers)).kind).toBe('anonymous');
      expect((await api.shares.list({ runId: id }))[0]!.revokedAt).not.toBeNull();
    });

    it('a token edited by hand, or signed with another secret, opens nothing', async () => {
      const { s, token } = await shared(false);
      const [linkId, signature] = token.split('.');
      const forged = [`${linkId}.${signature!.slice(0, -2)}AA`, `x${token}`, token.replace(linkId!, 'another-id')];
      for (const bad of forged) {
        const who = await principalFor(s.prisma, TEAM, new Headers({ cookie: `arborist_share=${bad}` }));
        expect(who.kind).toBe('anonymous');
      }
      const otherSecret = { ...TEAM, secret: 'another secret, just as long as the first one' };
      expect((await principalFor(s.prisma, otherSecret, new Headers({ cookie: `arborist_share=${token}` }))).kind).toBe(
        'anonymous',
      );
    });
  });

  describe('team mode: experiments and their share links', () => {
    it('members run experiments, viewers read them; a link to one opens it and its cells’ runs, nothing else', async () => {
      const t = await team();
      t.s.experiments.start();
      const api = as(t.s, t.member);
      const { id } = await api.experiment.create({
        taskId: 'game24',
        items: ['4 9 10 13', '1 1 4 6'],
        configurations: [{ label: 'b', model: { provider: 'simulated', seed: 1, latencyMs: 0 } }],
      });
      for (;;) {
        if ((await api.experiment.byId({ id })).status === 'finished') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const viewer = as(t.s, t.viewer);
      expect((await viewer.experiment.byId({ id })).cells).toHaveLength(2);
      expect(await codeOf(viewer.experiment.pause({ id }))).toBe('FORBIDDEN');
      expect(
        await codeOf(
          viewer.experiment.create({ taskId: 'game24', items: ['4 9 10 13'], configurations: [{ label: 'b' }] }),
        ),
      ).toBe('FORBIDDEN');
      // only its maker (or an admin) shares it
      expect(await codeOf(as(t.s, t.other).shares.createForExperiment({ experimentId: id }))).toBe('FORBIDDEN');
      expect(await codeOf(viewer.shares.createForExperiment({ experimentId: id }))).toBe('FORBIDDEN');
      const link = await api.shares.createForExperiment({ experimentId: id });
      const token = link.path.replace('/share/', '');
      // opening it sets the share cookie and goes to the experiment's page
      const opened = await openShareLinkResponse(
        { services: t.s, settings: TEAM, who: { kind: 'anonymous' } },
        new Request(`http://localhost${link.path}`),
        token,
      );
      expect(opened.status).toBe(303);
      expect(opened.headers.get('location')).toBe(`/experiments/${id}`);
      expect(opened.headers.get('set-cookie')).toContain(`arborist_share=${token}`);
      const headers = new Headers({ cookie: `arborist_share=${token}` });
      const holder = await principalFor(t.s.prisma, TEAM, headers);
      expect(holder).toMatchObject({ kind: 'share', runId: null, experimentId: id, allowPrompts: false });

      const h = as(t.s, holder);
      const view = await h.experiment.byId({ id });
      const cellRun = view.cells[0]!.runId!;
      expect((await h.run.byId({ id: cellRun })).id).toBe(cellRun);
      expect(await h.experiment.ofRun({ runId: cellRun })).toMatchObject({ experimentId: id });
      // nothing else: another run, the lists, another experiment, steering, prompts, sharing
      const { id: otherRun } = await api.run.create(game);
      await t.s.manager.settled(otherRun);
      expect(await codeOf(h.run.byId({ id: otherRun }))).toBe('FORBIDDEN');
      expect(await codeOf(h.experiment.list())).toBe('FORBIDDEN');
      expect(await codeOf(h.run.list({}))).toBe('FORBIDDEN');
      const { id: otherExperiment } = await api.experiment.create({
        taskId: 'game24',
        items: ['2 7 8 8'],
        configurations: [{ label: 'b', model: { provider: 'simulated', seed: 1, latencyMs: 0 } }],
      });
      expect(await codeOf(h.experiment.byId({ id: otherExperiment }))).toBe('FORBIDDEN');
      expect(await codeOf(h.experiment.pause({ id }))).toBe('FORBIDDEN');
      expect(await codeOf(h.run.pause({ id: cellRun }))).toBe('FORBIDDEN');
      const call = (await h.run.events({ id: cellRun, light: false })).events.find((e) => e.type === 'model.called');
      expect(call?.type === 'model.called' && call.payload.messages.length).toBe(0);
      expect(await codeOf(h.shares.createForExperiment({ experimentId: id }))).toBe('FORBIDDEN');

      // listed for its maker with the same URL; revoked, it opens nothing
      expect((await api.shares.listForExperiment({ experimentId: id })).map((l) => l.path)).toEqual([link.path]);
      await api.shares.revoke({ id: link.id });
      expect((await principalFor(t.s.prisma, TEAM, headers)).kind).toBe('anonymous');
    });
  });

  describe('team mode: sign-in, sessions, keys, users', () => {
    it('signs in with a session cookie that is HTTP-only and SameSite, and signs out for good', async () => {
      const { s, password } = await team();
      const res = new Headers();
      await as(s, { kind: 'anonymous' }, { res }).auth.signIn({ email: 'Member1@Team.test ', password });
      const cookie = res.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^arborist_session=[\w-]{40,};/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      const req = new Headers({ cookie: cookie.split(';')[0]! });
      const who = await principalFor(s.prisma, TEAM, req);
      expect(who).toMatchObject({ kind: 'user', email: 'member1@team.test', role: 'member' });
      await as(s, who, { req, res: new Headers() }).auth.signOut();
      expect((await principalFor(s.prisma, TEAM, req)).kind).toBe('anonymous');
    });

    it('refuses a wrong password and an unknown email alike, then throttles the email', async () => {
      const { s } = await team();
      const nobody = as(s, { kind: 'anonymous' }, { res: new Headers() });
      expect(await codeOf(nobody.auth.signIn({ email: 'member1@team.test', password: 'wrong password' }))).toBe(
        'UNAUTHORIZED',
      );
      expect(await codeOf(nobody.auth.signIn({ email: 'ghost@team.test', password: 'wrong password' }))).toBe(
        'UNAUTHORIZED',
      );
      const email = 'viewer3@team.test';
      for (let i = 0; i < 10; i++) await codeOf(nobody.auth.signIn({ email, password: `wrong ${i}` }));
      expect(await codeOf(nobody.auth.signIn({ email, password: 'correct horse battery' }))).toBe('TOO_MANY_REQUESTS');
    });

    it('an API key is shown once, stored as a hash, acts as its user, and stops when revoked', async () => {
      const { s, member } = await team();
      const { key, record } = await as(s, member).keys.create({ name: 'ci script' });
      expect(key).toMatch(/^ak_/);
      const stored = await s.prisma.apiKey.findUniqueOrThrow({ where: { id: record.id } });
      expect(JSON.stringify(stored)).not.toContain(key);
      expect((await as(s, member).keys.list()).map((k) => [k.name, k.prefix])).toEqual([
        ['ci script', key.slice(0, 9)],
      ]);
      const bearer = new Headers({ authorization: `Bearer ${key}` });
      expect(await principalFor(s.prisma, TEAM, bearer)).toMatchObject({ kind: 'user', role: 'member' });
      await as(s, member).keys.revoke({ id: record.id });
      expect((await principalFor(s.prisma, TEAM, bearer)).kind).toBe('anonymous');
    });

    it('admins add people and change roles; the last admin cannot be demoted or disabled; a disabled user is signed out', async () => {
      const { s, admin, member, password } = await team();
      const a = as(s, admin);
      expect(await codeOf(as(s, member).users.list())).toBe('FORBIDDEN');
      const added = await a.users.create({ email: 'new@team.test', role: 'viewer', password });
      expect((await a.users.list()).map((u) => u.email)).toContain('new@team.test');
      expect(await codeOf(a.users.update({ id: admin.kind === 'user' ? admin.id : '', role: 'member' }))).toBe(
        'CONFLICT',
      );
      const res = new Headers();
      await as(s, { kind: 'anonymous' }, { res }).auth.signIn({ email: 'new@team.test', password });
      const req = new Headers({ cookie: res.get('set-cookie')!.split(';')[0]! });
      expect((await principalFor(s.prisma, TEAM, req)).kind).toBe('user');
      await a.users.update({ id: added.id, disabled: true });
      expect((await principalFor(s.prisma, TEAM, req)).kind).toBe('anonymous');
      expect(await codeOf(as(s, { kind: 'anonymous' }).auth.signIn({ email: 'new@team.test', password }))).toBe(
        'UNAUTHORIZED',
      );
    });
  });

  describe('team mode: model servers and budgets through the API', () => {
    const custom = (baseURL: string) => ({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'openai' as const, baseUrlPreset: 'custom' as const, baseURL, model: 'any' },
    });

    it('refuses a custom base URL from a member, and from an admin when it names a private, loopback or metadata address; nothing is stored', async () => {
      const { s, admin, member } = await team();
      expect(await codeOf(as(s, member).run.create(custom('https://api.example.com/v1')))).toBe('FORBIDDEN');
      for (const url of [
        'http://127.0.0.1:8000/v1',
        'http://2130706433/v1',
        'http://10.0.0.1/v1',
        'http://169.254.169.254/latest',
        'http://[::1]:8000/v1',
      ]) {
        expect(await codeOf(as(s, admin).run.create(custom(url))), url).toBe('BAD_REQUEST');
      }
      expect(await s.prisma.run.count()).toBe(0);
    });

    it('tells the run form which base URLs each person may type: public ones for admins, none for the others', async () => {
      const { s, admin, member, viewer } = await team();
      expect((await as(s, admin).backend.list()).customURLs).toBe('public');
      expect((await as(s, member).backend.list()).customURLs).toBe('none');
      expect((await as(s, viewer).backend.list()).customURLs).toBe('none');
      expect((await createCaller(testContext(s)).backend.list()).customURLs).toBe('any');
    });

    it("a fork on its parent's custom server is refused to a member, as starting one would be", async () => {
      const { s, admin, member } = await team();
      // an admin's run on a custom server, stored as if it had been made in local mode (no network here)
      const local = createCaller(testContext(s));
      const { id } = await local.run.create(custom('http://127.0.0.1:9/v1'));
      await s.manager.settled(id);
      await s.prisma.run.update({ where: { id }, data: { ownerId: admin.kind === 'user' ? admin.id : null } });
      expect(await codeOf(as(s, member).run.fork({ runId: id, nodeId: 'n0' }))).toBe('FORBIDDEN');
    });

    it('refuses a code run on a folder of the server to a member (create, fork and replay), with the reason; admins and the local person may', async () => {
      const { s, admin, member } = await team();
      // a real folder: the server checks it exists before it stores a run
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arborist-folder-'));
      fs.writeFileSync(path.join(dir, 'total.ts'), 'export const total = 1;\n');
      const folder = {
        taskId: 'code',
        goal: `project: ${dir}\nchange: rename total to sum`,
        model: { provider: 'simulated' as const, seed: 1, latencyMs: 0 },
      };
      const refusal = await as(s, member)
        .run.create(folder)
        .then(() => null)
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(TRPCError);
      expect((refusal as TRPCError).code).toBe('FORBIDDEN');
      expect((refusal as TRPCError).message).toMatch(/only an admin.*folder.*bench\/<id>/);
      expect(await s.prisma.run.count()).toBe(0);
      // a benchmark project is anyone's to run; a folder is an admin's, and the local person's
      // (each stopped at once: what they would find is the code task's business, not this check's)
      const started = async (api: ReturnType<typeof as>, input: typeof folder) => {
        const { id } = await api.run.create(input);
        await api.run.abort({ id }).catch(() => undefined); // it may have ended already (nothing to propose there)
        await s.manager.settled(id);
        return id;
      };
      await started(as(s, member), { ...folder, goal: 'project: bench/clamp-range' });
      const byAdmin = await started(as(s, admin), folder);
      await started(createCaller(testContext(s)), folder);
      // the admin's folder run, forked or replayed by a member, would read the folder again
      expect(await codeOf(as(s, member).run.fork({ runId: byAdmin, nodeId: 'n0' }))).toBe('FORBIDDEN');
      const replay = { provider: 'replay' as const, recordingRunId: byAdmin };
      expect(await codeOf(as(s, member).run.create({ ...game, model: replay }))).toBe('FORBIDDEN');
      expect(await s.prisma.run.count()).toBe(3);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("caps a member's new run at what is left of their day, and refuses one when the day is spent", async () => {
      const { s, member } = await team();
      const memberId = member.kind === 'user' ? member.id : '';
      vi.stubEnv('ARBORIST_DAILY_BUDGET_USD', '1');
      try {
        const api = as(s, member);
        const first = await api.run.create({ ...game, config: { maxCostUsd: 5 } });
        await s.manager.settled(first.id);
        expect((await api.run.byId({ id: first.id })).config.maxCostUsd).toBe(1);
        await s.prisma.run.update({ where: { id: first.id }, data: { cost: 0.75, ownerId: memberId } });
        const second = await api.run.create(game);
        await s.manager.settled(second.id);
        expect((await api.run.byId({ id: second.id })).config.maxCostUsd).toBeCloseTo(0.25, 6);
        await s.prisma.run.update({ where: { id: second.id }, data: { cost: 0.25 } });
        const refused = api.run.create(game);
        expect(await codeOf(refused)).toBe('FORBIDDEN');
        await expect(api.run.create(game)).rejects.toThrow(/today's model budget is spent/);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });

  describe('team mode: the live stream', () => {
    it("refuses a share link's holder another run's stream with FORBIDDEN, before any event", async () => {
      const { s, member } = await team();
      const api = as(s, member);
      const { id } = await api.run.create(game);
      const { id: other } = await api.run.create({ ...game, goal: '1 1 4 6' });
      await Promise.all([s.manager.settled(id), s.manager.settled(other)]);
      const link = await api.shares.create({ runId: id });
      const headers = new Headers({ cookie: `arborist_share=${link.path.replace('/share/', '')}` });
      const holder = as(s, await principalFor(s.prisma, TEAM, headers));
      expect(await codeOf(holder.run.onEvents({ runId: other }))).toBe('FORBIDDEN');
      expect(await codeOf(as(s, { kind: 'anonymous' }).run.onEvents({ runId: id }))).toBe('UNAUTHORIZED');
      const own = await collect(await holder.run.onEvents({ runId: id }), (ev) => ev.at(-1)?.type === 'run.finished');
      expect(own.filter((e) => e.type === 'model.called').every((e) => e.payload.messages.length === 0)).toBe(true);
    });
  });
});
