// A fuzz pass over every write of the typed API in team mode, on real SQLite and real PostgreSQL: each mutation of
// the appRouter (read from the router itself, so a new one fails this file until the table says who may call it) is
// called with plausible input aimed at a member's run, experiment, dataset, key and link, as a viewer, the holder of a
// run's share link and of an experiment's, another member (where the rule table keeps it to the owner or an admin)
// and nobody; each refusal is the role's answer and leaves every table's rows as they were. Then the oversized fields
// (a goal, a fork's thought, a dataset's line, a comment, an ingest thought and metadata) are refused naming the field and the
// limit, writing nothing.
// Not responsible for the rule table's allowed paths (access.test.ts), the ingest API's HTTP face (its role answers
// are http/admit.ts's, tested in e2e/ingest-api.spec.ts) nor for what a permitted write does (the routers' tests).
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { Principal } from '../../contract/access';
import { MAX_GOAL_CHARS } from '../../contract/run';
import { GOAL_MAX_LENGTH } from '../../contract/tasks';
import { MAX_METADATA_VALUE_CHARS } from '../../contract/vocabulary';
import { Prisma } from '../../generated/prisma/client';
import { principalFor, userPrincipal } from '../auth/principal';
import { createUser } from '../auth/users';
import { isIngestRefusal } from '../ingest/refusal';
import { BACKENDS } from '../testing/db';
import { servicesPerTest, type TestServices } from '../testing/services';
import { createContextInner } from './context';
import { appRouter, createCaller } from './routers/root';
import { TEST_TEAM_AUTH as TEAM } from '../testing/context';

const testServices = servicesPerTest();

const game = { taskId: 'game24', goal: '4 9 10 13', model: { provider: 'simulated' as const, seed: 3, latencyMs: 0 } };
const configuration = { label: 'b', model: { provider: 'simulated' as const, seed: 1, latencyMs: 0 } };

/** Who asks: the callers a write may be refused to. */
type Caller = 'viewer' | 'runLink' | 'experimentLink' | 'otherMember' | 'nobody';
type Outcome = 'OK' | 'FORBIDDEN' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT';

/** What each write is aimed at: a member's things, made before the pass. */
interface Things {
  runId: string;
  userId: string;
  viewerId: string;
  experimentId: string;
  datasetId: string;
  keyId: string;
  linkId: string;
  experimentLinkId: string;
  /** The owner's comment on their run, and their label on its node n1 ('good thought'). */
  commentId: string;
}

interface Row {
  /** The inputs it is tried with (each by every caller in `answers`). */
  inputs: (t: Things) => unknown[];
  /** What each caller named gets; every one of them writes nothing. */
  answers: Partial<Record<Caller, Outcome>>;
  /** Why a caller left out of `answers` may do it (the rule table, lib/contract/access.ts, says so). */
  allowed?: string;
}

/** Refused to everyone but members and admins (memberProcedure): a member may steer and fork a teammate's run. */
const forMembers = {
  viewer: 'FORBIDDEN',
  runLink: 'FORBIDDEN',
  experimentLink: 'FORBIDDEN',
  nobody: 'UNAUTHORIZED',
} as const;
/** Refused to everyone but the owner and admins: a teammate too. */
const forOwners = { ...forMembers, otherMember: 'FORBIDDEN' } as const;
const MEMBERS_STEER = "members steer any run or experiment (canOnRun: 'steer')";
const MEMBERS_DISCUSS = "members comment on and label any run (canOnRun: 'discuss')";

/** Every mutation of the appRouter, and who is refused it. */
const WRITES: Record<string, Row> = {
  'run.create': { inputs: () => [game], answers: forMembers, allowed: 'members start runs' },
  'run.fork': { inputs: (t) => [{ runId: t.runId, nodeId: 'n1' }], answers: forMembers, allowed: MEMBERS_STEER },
  'run.setBreakpoints': {
    inputs: (t) => [{ id: t.runId, breakpoints: [] }],
    answers: forMembers,
    allowed: MEMBERS_STEER,
  },
  'run.pause': { inputs: (t) => [{ id: t.runId }], answers: forMembers, allowed: MEMBERS_STEER },
  'run.resume': { inputs: (t) => [{ id: t.runId }], answers: forMembers, allowed: MEMBERS_STEER },
  'run.step': { inputs: (t) => [{ id: t.runId }], answers: forMembers, allowed: MEMBERS_STEER },
  'run.abort': { inputs: (t) => [{ id: t.runId }], answers: forMembers, allowed: MEMBERS_STEER },
  'run.delete': { inputs: (t) => [{ id: t.runId }], answers: forOwners },
  'node.prune': { inputs: (t) => [{ runId: t.runId, nodeId: 'n1' }], answers: forMembers, allowed: MEMBERS_STEER },
  'node.expand': { inputs: (t) => [{ runId: t.runId, nodeId: 'n1' }], answers: forMembers, allowed: MEMBERS_STEER },
  'comment.add': {
    inputs: (t) => [
      { runId: t.runId, nodeId: 'n1', text: 'a thought' },
      { runId: t.runId, text: 'on the run' },
      { runId: t.runId, text: 'a reply', replyTo: t.commentId },
    ],
    answers: forMembers,
    allowed: MEMBERS_DISCUSS,
  },
  // a comment is its author's to edit, and its author's or an admin's to delete (canChangeWriting)
  'comment.edit': { inputs: (t) => [{ id: t.commentId, text: 'changed' }], answers: forOwners },
  'comment.delete': { inputs: (t) => [{ id: t.commentId }], answers: forOwners },
  'label.set': {
    inputs: (t) => [{ runId: t.runId, nodeId: 'n1', label: 'good thought', note: 'mine now' }],
    // the label is on the node already, put there by the owner: another member's answer is CONFLICT
    answers: { ...forMembers, otherMember: 'CONFLICT' },
  },
  'label.remove': { inputs: (t) => [{ runId: t.runId, nodeId: 'n1', label: 'good thought' }], answers: forOwners },
  'auth.signIn': {
    inputs: () => [{ email: 'member1@team.test', password: 'not the password' }],
    answers: {},
    allowed: 'signing in is how a role is had: open to anyone (a wrong password is counted by the throttle, by design)',
  },
  'auth.signOut': {
    inputs: () => [undefined],
    // with no session cookie there is nothing to end: the answer is OK and nothing is written
    answers: { viewer: 'OK', runLink: 'OK', experimentLink: 'OK', otherMember: 'OK', nobody: 'OK' },
  },
  'auth.setup': {
    inputs: () => [{ code: 'any-code', email: 'mallory@team.test', password: 'a long enough password' }],
    // open to anyone until the first admin exists; after that, refused to all alike
    answers: {
      viewer: 'CONFLICT',
      runLink: 'CONFLICT',
      experimentLink: 'CONFLICT',
      otherMember: 'CONFLICT',
      nobody: 'CONFLICT',
    },
  },
  'users.create': {
    inputs: () => [{ email: 'mallory@team.test', role: 'admin', password: 'a long enough password' }],
    answers: forOwners,
  },
  'users.update': {
    inputs: (t) => [
      { id: t.userId, role: 'admin' },
      { id: t.viewerId, role: 'member' },
      { id: t.viewerId, disabled: true },
    ],
    answers: forOwners,
  },
  'keys.create': {
    inputs: () => [{ name: 'script' }],
    answers: { runLink: 'FORBIDDEN', experimentLink: 'FORBIDDEN', nobody: 'UNAUTHORIZED' },
    allowed: "every signed-in user makes their own keys (a viewer's reads only; the ingest API wants a member's)",
  },
  'keys.revoke': {
    inputs: (t) => [{ id: t.keyId }],
    // another's key is not found for whoever may not revoke it (keys.ts): its existence is not told either
    answers: {
      viewer: 'NOT_FOUND',
      otherMember: 'NOT_FOUND',
      runLink: 'FORBIDDEN',
      experimentLink: 'FORBIDDEN',
      nobody: 'UNAUTHORIZED',
    },
  },
  'shares.create': { inputs: (t) => [{ runId: t.runId }], answers: forOwners },
  'shares.revoke': { inputs: (t) => [{ id: t.linkId }, { id: t.experimentLinkId }], answers: forOwners },
  'shares.createForExperiment': { inputs: (t) => [{ experimentId: t.experimentId }], answers: forOwners },
  'experiment.create': {
    inputs: () => [{ taskId: 'game24', items: ['4 9 10 13'], configurations: [configuration] }],
    answers: forMembers,
    allowed: 'members run experiments',
  },
  'experiment.pause': { inputs: (t) => [{ id: t.experimentId }], answers: forMembers, allowed: MEMBERS_STEER },
  'experiment.resume': { inputs: (t) => [{ id: t.experimentId }], answers: forMembers, allowed: MEMBERS_STEER },
  'experiment.abort': { inputs: (t) => [{ id: t.experimentId }], answers: forMembers, allowed: MEMBERS_STEER },
  'dataset.create': {
    inputs: () => [{ name: 'mine', taskId: 'game24', items: [{ goal: '1 1 4 6' }] }],
    answers: forMembers,
    allowed: 'members make datasets',
  },
  'dataset.update': {
    inputs: (t) => [{ id: t.datasetId, items: [{ goal: '1 1 4 6' }] }],
    answers: forMembers,
    allowed: 'a member edits any dataset: a new version, the old ones kept for the experiments that ran them',
  },
};

/** The appRouter's mutations, read from the router (tRPC's flat record of procedures by dotted path). */
function mutationPaths(): string[] {
  // typed as the nested record, but tRPC keeps them flat by dotted path at run time
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.type === 'mutation')
    .map(([path]) => path)
    .sort();
}

/** Every row of every Prisma model, as text: a write of any kind (insert, update, delete) changes it. */
async function everyRow(s: TestServices): Promise<Record<string, string>> {
  const rows: Record<string, string> = {};
  for (const model of Object.values(Prisma.ModelName)) {
    const delegate = (s.prisma as unknown as Record<string, { findMany(): Promise<unknown[]> }>)[
      model.charAt(0).toLowerCase() + model.slice(1)
    ]!;
    const found = (await delegate.findMany()).map((row) =>
      JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    );
    rows[model] = `${found.length}: ${found.sort().join('\n')}`;
  }
  return rows;
}

async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`;
  }
}

/** A BAD_REQUEST's words as the API's error formatter gives them (trpc.ts): the first issue's path, then its message. */
async function badRequest(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
    const issue = error.cause instanceof ZodError ? error.cause.issues[0] : undefined;
    return issue ? `${issue.path.join('.') || 'input'}: ${issue.message}` : error.message;
  }
  throw new Error('expected BAD_REQUEST');
}

/** An ingest refusal's status and message. */
async function ingestRefusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isIngestRefusal(error)) return `${error.status} ${error.body.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

/**
 * Inputs a careless or hostile client sends instead of `plausible`: nothing, the wrong types, every field a huge
 * string or a number, extra fields, prototype keys. Deterministic, so a failure is the same on every run.
 */
function malformed(plausible: unknown): unknown[] {
  const fields = plausible && typeof plausible === 'object' ? Object.keys(plausible) : ['id'];
  const every = (value: unknown) => Object.fromEntries(fields.map((key) => [key, value]));
  return [
    undefined,
    null,
    {},
    [],
    'x'.repeat(10_000),
    every('x'.repeat(100_001)),
    every(-1),
    every({ nested: { deeper: [1, 2, 3] } }),
    { ...(plausible as object), extra: true, ['__proto__']: { admin: true } },
    JSON.parse('{"__proto__": {"role": "admin"}, "constructor": {"prototype": {"role": "admin"}}}'),
  ];
}

type Api = ReturnType<typeof createCaller>;
const as = (s: TestServices, who: Principal): Api => createCaller(createContextInner(s, { who, auth: TEAM }));

/** Calls a procedure by its dotted path. */
function call(api: Api, path: string, input: unknown): Promise<unknown> {
  const procedure = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], api);
  return (procedure as (input: unknown) => Promise<unknown>)(input);
}

describe('the table of writes', () => {
  it('names every mutation of the appRouter, and nothing else', () => {
    expect(Object.keys(WRITES).sort()).toEqual(mutationPaths());
  });
});

describe.each(BACKENDS)('fuzzing the writes in team mode (%s)', (backend) => {
  async function team() {
    const s = await testServices.open(backend);
    const password = 'correct horse battery';
    const [admin, member, other, viewer] = await Promise.all(
      (['admin', 'member', 'member', 'viewer'] as const).map((role, i) =>
        createUser(s.prisma, { email: `${role}${i}@team.test`, role, password }),
      ),
    );
    s.experiments.start();
    const owner = as(s, userPrincipal(member!));
    const { id: runId } = await owner.run.create(game);
    await s.manager.settled(runId);
    const { id: experimentId } = await owner.experiment.create({
      taskId: 'game24',
      items: ['4 9 10 13'],
      configurations: [configuration],
    });
    // its cell runs at once: finished and settled before any rows are compared, so nothing moves but the writes tried
    for (;;) {
      const view = await owner.experiment.byId({ id: experimentId });
      if (view.status === 'finished') {
        await Promise.all(view.cells.map((cell) => (cell.runId ? s.manager.settled(cell.runId) : undefined)));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { id: datasetId } = await owner.dataset.create({
      name: 'theirs',
      taskId: 'game24',
      items: [{ goal: '4 9 10 13' }],
    });
    const { record: key } = await owner.keys.create({ name: 'theirs' });
    const link = await owner.shares.create({ runId });
    const { id: commentId } = await owner.comment.add({ runId, nodeId: 'n1', text: 'the first thought' });
    await owner.label.set({ runId, nodeId: 'n1', label: 'good thought' });
    const experimentLink = await owner.shares.createForExperiment({ experimentId });
    const holder = (path: string) =>
      principalFor(s.prisma, TEAM, new Headers({ cookie: `arborist_share=${path.replace('/share/', '')}` }));
    const callers: Record<Caller, Principal> = {
      viewer: userPrincipal(viewer!),
      runLink: await holder(link.path),
      experimentLink: await holder(experimentLink.path),
      otherMember: userPrincipal(other!),
      nobody: { kind: 'anonymous' },
    };
    expect(callers.runLink.kind).toBe('share');
    expect(callers.experimentLink.kind).toBe('share');
    const things: Things = {
      runId,
      userId: member!.id,
      viewerId: viewer!.id,
      experimentId,
      datasetId,
      keyId: key.id,
      linkId: link.id,
      experimentLinkId: experimentLink.id,
      commentId,
    };
    return { s, owner, callers, things, admin: userPrincipal(admin!) };
  }

  it('refuses every write beyond the role with its answer, and no table changes', async () => {
    const { s, callers, things } = await team();
    const answers: string[] = [];
    const expected: string[] = [];
    for (const path of mutationPaths()) {
      const row = WRITES[path]!;
      const before = await everyRow(s);
      for (const [caller, outcome] of Object.entries(row.answers) as [Caller, Outcome][]) {
        for (const [i, input] of row.inputs(things).entries()) {
          const answer = await outcomeOf(call(as(s, callers[caller]), path, input));
          answers.push(`${path}#${i} as ${caller}: ${answer}`);
          expected.push(`${path}#${i} as ${caller}: ${outcome}`);
        }
      }
      // compared per procedure, so a failure names the write that changed something
      expect({ path, rows: await everyRow(s) }).toEqual({ path, rows: before });
    }
    expect(answers).toEqual(expected);
  });

  it('answers malformed inputs to a write beyond the role with the refusal or BAD_REQUEST, never OK or a 500, writing nothing', async () => {
    const { s, callers, things } = await team();
    const unexpected: string[] = [];
    for (const path of mutationPaths()) {
      const row = WRITES[path]!;
      const before = await everyRow(s);
      for (const [caller, outcome] of Object.entries(row.answers) as [Caller, Outcome][]) {
        if (outcome === 'OK') continue;
        for (const [i, input] of malformed(row.inputs(things)[0]).entries()) {
          const answer = await outcomeOf(call(as(s, callers[caller]), path, input));
          if (answer !== outcome && answer !== 'BAD_REQUEST') unexpected.push(`${path}~${i} as ${caller}: ${answer}`);
        }
      }
      expect({ path, rows: await everyRow(s) }).toEqual({ path, rows: before });
    }
    expect(unexpected).toEqual([]);
  });

  it('refuses an oversized goal, fork thought or dataset line through the API, naming the field and the limit, writing nothing', async () => {
    const { s, owner, things } = await team();
    const before = await everyRow(s);
    const long = 'x'.repeat(GOAL_MAX_LENGTH + 1);
    const limit = `<=${GOAL_MAX_LENGTH} characters`;
    expect(await badRequest(owner.run.create({ ...game, goal: long }))).toBe(
      `goal: Too big: expected string to have ${limit}`,
    );
    expect(await badRequest(owner.run.fork({ runId: things.runId, nodeId: 'n1', thought: 't'.repeat(4_001) }))).toBe(
      'thought: Too big: expected string to have <=4000 characters',
    );
    expect(
      await badRequest(owner.experiment.create({ taskId: 'game24', items: [long], configurations: [configuration] })),
    ).toBe(`items.0: Too big: expected string to have ${limit}`);
    expect(await badRequest(owner.dataset.create({ name: 'big', taskId: 'game24', items: [{ goal: long }] }))).toBe(
      `items.0.goal: Too big: expected string to have ${limit}`,
    );
    expect(await badRequest(owner.comment.add({ runId: things.runId, nodeId: 'n1', text: 'c'.repeat(10_001) }))).toBe(
      'text: a comment has at most 10,000 characters',
    );
    // a file's line: the parser's refusal names the line and the field
    const file = { format: 'jsonl' as const, text: `"4 9 10 13"\n${JSON.stringify({ goal: long })}\n` };
    const fileRefusal = `line 2: goal: Too big: expected string to have ${limit}`;
    expect(await badRequest(owner.dataset.create({ name: 'big', taskId: 'game24', file }))).toContain(fileRefusal);
    expect(await badRequest(owner.dataset.update({ id: things.datasetId, file }))).toContain(fileRefusal);
    expect(await everyRow(s)).toEqual(before);
  });

  it('refuses an oversized goal, thought or metadata through the ingest API, naming the field and the limit, writing nothing', async () => {
    const { s } = await team();
    const creator = { ownerId: null, actor: 'tester' };
    expect(await ingestRefusal(s.ingest.create({ goal: 'g'.repeat(MAX_GOAL_CHARS + 1) }, creator))).toBe(
      `400 goal: Too big: expected string to have <=${MAX_GOAL_CHARS} characters`,
    );
    const { runId } = await s.ingest.create({ goal: 'make 24 from 4 9 10 13' }, creator);
    await s.ingest.append(runId, [{ seq: 1, op: 'node', id: 'root', parent: null }]);
    const before = await everyRow(s);
    const thought = { seq: 2, op: 'node' as const, id: 'a', parent: 'root', thought: 'x'.repeat(100_001) };
    expect(await ingestRefusal(s.ingest.append(runId, [thought]))).toBe(
      '400 items[0]: seq 2: payload.branch.thought: 100,001 characters, over the 100,000-character cap on a thought',
    );
    const metadata = {
      seq: 2,
      op: 'annotate' as const,
      node: 'root',
      metadata: { state: 's'.repeat(MAX_METADATA_VALUE_CHARS) },
    };
    expect(await ingestRefusal(s.ingest.append(runId, [metadata]))).toBe(
      '400 items[0].metadata.state: 131,074 characters of JSON, over the 131,072-character cap on a metadata value',
    );
    expect(await everyRow(s)).toEqual(before);
  });
});
