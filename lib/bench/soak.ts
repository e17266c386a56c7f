/**
 * `npm run soak`: a chaos soak, bounded, on loopback only; it stops by itself and exits 1 when a check fails.
 * 1. PostgreSQL (a throwaway cluster, lib/harness): three production instances (next start) in team mode on one
 *    database, for SOAK_SECONDS (default 360: with the SQLite part and the drains, about 10 minutes). Meanwhile:
 *    - engine runs are started without pause (a small open-goal search each, on a random instance), by one person
 *      after another: each has a daily budget (the simulated model priced high), and when the day refuses a person's
 *      next run the next person takes over; every 20 s three runs are started at once;
 *    - three external clients stream their own searches through the ingest API, each batch sent to a random
 *      instance and sent again to another when its instance is gone (as the SDK retries);
 *    - an import every 15 s, and an experiment every 60 s (eight cells, each a run);
 *    - ten live followers read runs' events.ndjson?follow=1, and reconnect to another instance with ?after= when
 *      theirs dies;
 *    - every SOAK_KILL_EVERY_S (default 30) one instance is SIGKILLed, and started again 2 s later.
 *    Then the work stops, the cluster is given SOAK_DRAIN_S (default 120) to finish what it was running, and the
 *    checks: every run finished, or interrupted and resumable; every log gap-free from seq 1 to the row's lastSeq;
 *    every follower saw each event of its runs exactly once, in order; every external client's items stored once;
 *    no person's day past its budget by more than the calls that were in flight; no import left staged, no use of a
 *    prompt text without its text; PostgreSQL's amcheck (B-tree indexes and heap) finds nothing.
 * 2. SQLite: one instance on a file for a third of that time, killed every SOAK_KILL_EVERY_S / 2 while runs and a
 *    client write (mid-write, and mid-checkpoint when a kill lands on one of SQLite's automatic checkpoints); then
 *    the same log checks and SQLite's integrity_check.
 * SOAK_DATABASES=postgresql or =sqlite runs one part. `npm run soak:ci` is the same for 90 s (about 2.5 minutes).
 * Not a benchmark (it measures nothing for speed) and not a unit test (it needs a build, three servers and minutes).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { ExplorationEvent } from '../contract/events';
import { sleep } from '../contract/sleep';
import {
  ensureBuild,
  exportFile,
  freePort,
  type PostgresCluster,
  searchEvents,
  startPostgres,
  startServer,
  waitUntilUp,
} from '../harness/index';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 360);
const KILL_EVERY_MS = Number(process.env.SOAK_KILL_EVERY_S ?? 30) * 1000;
const DRAIN_MS = Number(process.env.SOAK_DRAIN_S ?? 120) * 1000;
const DATABASES = new Set((process.env.SOAK_DATABASES ?? 'postgresql,sqlite').split(',').map((d) => d.trim()));
const FOLLOWERS = 10;
const EXTERNAL_CLIENTS = 3;
const PEOPLE = 30;
const DAILY_BUDGET_USD = 2;
/**
 * The simulated model priced so that a small search costs about 15 cents: a person's day lasts a dozen runs, and the
 * budget is reached again and again during the soak while runs of that person are still going.
 */
const PRICES = { simulated: { inputPerMillion: 5, outputPerMillion: 20 } };
const SECRET = 'soak-secret-0123456789abcdef0123456789abcdef';
const ADMIN = { email: 'admin@soak.test', password: 'soak-admin-password' };
const PASSWORD = 'soak-person-password';

// ---------------------------------------------------------------------------------------------------------------
// Instances

interface Instance {
  name: string;
  port: number;
  base: string;
  env: Record<string, string>;
  process: ChildProcess | null;
  output: string[];
}

/** Every server this script started and has not seen exit: killed when the script exits, however it exits. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function start(instance: Instance): Promise<void> {
  instance.output = [];
  const child = startServer(instance.port, instance.env, (text) => {
    instance.output.push(text);
    if (instance.output.length > 200) instance.output.shift();
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  instance.process = child;
  try {
    await waitUntilUp(child, instance.base);
  } catch (error) {
    throw new Error(`${instance.name} did not start: ${instance.output.join('').slice(-2000)}`, { cause: error });
  }
}

async function kill(instance: Instance): Promise<void> {
  const child = instance.process;
  instance.process = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const isUp = (instance: Instance) => instance.process !== null;

function pick(instances: Instance[], not?: Instance): Instance {
  const live = instances.filter((i) => isUp(i) && i !== not);
  const from = live.length ? live : instances.filter(isUp);
  return from[Math.floor(Math.random() * from.length)] ?? (instances[0] as Instance);
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP, as a script does it: a Bearer key in team mode, JSON bodies, no Origin (not a browser)

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function headers(key: string | null): Record<string, string> {
  return { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) };
}

async function trpc<T>(base: string, route: string, input: unknown, key: string | null, cookie?: string): Promise<T> {
  const res = await fetch(`${base}/api/trpc/${route}`, {
    method: 'POST',
    headers: { ...headers(key), ...(cookie && { cookie, origin: base }) },
    body: JSON.stringify({ json: input }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: { json?: { message?: string } } };
  if (!body.result) throw new HttpError(res.status, `${route}: ${body.error?.json?.message ?? res.status}`);
  return body.result.data.json;
}

/** Retries what a dead instance could not answer on another (network errors and 5xx), as a client would. */
async function onAnyInstance<T>(instances: Instance[], work: (base: string) => Promise<T>, tries = 80): Promise<T> {
  let last: unknown;
  let instance = pick(instances);
  for (let i = 0; i < tries; i++) {
    try {
      return await work(instance.base);
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) throw error;
      last = error;
      await sleep(250);
      instance = pick(instances, instance);
    }
  }
  throw last;
}

/** A signed-in person's API key: sign in for a session cookie, then make a key with it. */
async function apiKeyFor(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/trpc/auth.signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ json: { email, password } }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!res.ok || !cookie) throw new Error(`sign-in of ${email} failed (${res.status}): ${await res.text()}`);
  const { key } = await trpc<{ key: string }>(base, 'keys.create', { name: 'soak' }, null, cookie);
  return key;
}

// ---------------------------------------------------------------------------------------------------------------
// The work

interface Tally {
  runsStarted: number;
  runsRefusedByBudget: number;
  externalRuns: string[];
  itemsSent: Map<string, number>;
  imports: number;
  experiments: number;
  importsFailed: number;
  /** Per follower and run ("<follower>:<runId>"): the seqs it saw, and whether its stream ended with the run. */
  followed: Map<string, { runId: string; seqs: number[]; ended: boolean }>;
  reconnects: number;
  violations: string[];
  kills: number;
  errors: string[];
}

function newTally(): Tally {
  return {
    runsStarted: 0,
    runsRefusedByBudget: 0,
    externalRuns: [],
    itemsSent: new Map(),
    imports: 0,
    experiments: 0,
    importsFailed: 0,
    followed: new Map(),
    reconnects: 0,
    violations: [],
    kills: 0,
    errors: [],
  };
}

const SMALL_SEARCH = { maxTotalNodes: 12, maxDepth: 4, terminationConfidence: 1, confidenceThreshold: 0 };

/** Starts runs without pause, a person at a time; a person whose day is spent hands over to the next. */
async function startRuns(instances: Instance[], keys: (string | null)[], tally: Tally, until: () => boolean) {
  let person = 0;
  let seed = 1;
  const create = async () => {
    const key = keys[person % keys.length] ?? null;
    try {
      await onAnyInstance(instances, (base) =>
        trpc(
          base,
          'run.create',
          {
            taskId: 'open-goal',
            goal: `Soak run ${seed}: plan a small change`,
            config: SMALL_SEARCH,
            model: { provider: 'simulated', seed: seed++, latencyMs: 40 },
          },
          key,
        ),
      );
      tally.runsStarted++;
    } catch (error) {
      if (error instanceof HttpError && /budget is spent/.test(error.message)) {
        tally.runsRefusedByBudget++;
        person++;
      } else tally.errors.push(`run.create: ${(error as Error).message}`);
    }
  };
  let burstAt = Date.now() + 20_000;
  while (!until()) {
    if (Date.now() >= burstAt) {
      // three at once: the day's budget must hold between runs that start together (on different instances)
      await Promise.all([create(), create(), create()]);
      burstAt = Date.now() + 20_000;
    } else await create();
    await sleep(1_000);
  }
}

/** An external search streamed in batches, each batch to any instance, resent elsewhere when that one is gone. */
async function externalClient(
  instances: Instance[],
  key: string | null,
  n: number,
  tally: Tally,
  until: () => boolean,
) {
  while (!until()) {
    const runId = await onAnyInstance(instances, async (base) => {
      const res = await fetch(`${base}/api/ingest/runs`, {
        method: 'POST',
        headers: headers(key),
        body: JSON.stringify({ goal: `external search ${n}`, task: 'soak', model: 'scripted', commands: [] }),
      });
      if (res.status !== 201) throw new HttpError(res.status, `ingest create: ${await res.text()}`);
      return ((await res.json()) as { runId: string }).runId;
    }).catch((error: unknown) => {
      tally.errors.push(`ingest create: ${(error as Error).message}`);
      return null;
    });
    if (!runId) continue;
    tally.externalRuns.push(runId);
    let seq = 0;
    for (let batch = 0; batch < 40 && !until(); batch++) {
      const items = Array.from({ length: 5 }, () => {
        const i = seq++;
        return i === 0
          ? { seq: i + 1, op: 'node', id: 'n0', parent: null }
          : {
              seq: i + 1,
              op: 'node',
              id: `n${i}`,
              parent: `n${Math.floor((i - 1) / 3)}`,
              thought: `step ${i}`,
              score: 0.5,
            };
      });
      try {
        await onAnyInstance(instances, async (base) => {
          const res = await fetch(`${base}/api/ingest/runs/${runId}/events`, {
            method: 'POST',
            headers: headers(key),
            body: JSON.stringify(items),
            signal: AbortSignal.timeout(15_000),
          });
          if (!res.ok) throw new HttpError(res.status, `append: ${await res.text()}`);
        });
        tally.itemsSent.set(runId, seq);
      } catch (error) {
        tally.errors.push(`ingest append to ${runId}: ${(error as Error).message}`);
        break;
      }
      await sleep(200);
    }
    await onAnyInstance(instances, async (base) => {
      const res = await fetch(`${base}/api/ingest/runs/${runId}/finish`, {
        method: 'POST',
        headers: headers(key),
        body: JSON.stringify({ success: true }),
      });
      if (!res.ok && res.status !== 409) throw new HttpError(res.status, `finish: ${await res.text()}`);
    }).catch((error: unknown) => tally.errors.push(`ingest finish: ${(error as Error).message}`));
  }
}

async function importer(instances: Instance[], key: string | null, body: string, tally: Tally, until: () => boolean) {
  while (!until()) {
    try {
      await onAnyInstance(
        instances,
        async (base) => {
          const res = await fetch(`${base}/api/runs/import?tag=soak`, { method: 'POST', headers: headers(key), body });
          if (!res.ok) throw new HttpError(res.status, `import: ${await res.text()}`);
        },
        3,
      );
      tally.imports++;
    } catch {
      // an import whose instance died mid-way is lost (its client sees the failure); its staged rows are checked
      tally.importsFailed++;
    }
    await sleep(15_000);
  }
}

/** An experiment every 60 s (four Game of 24 goals x two configurations): its cells are runs the kills cut too. */
async function experimenter(instances: Instance[], key: string | null, tally: Tally, until: () => boolean) {
  const configuration = (label: string, seed: number) => ({
    label,
    model: { provider: 'simulated', seed, latencyMs: 30 },
  });
  while (!until()) {
    try {
      await onAnyInstance(instances, (base) =>
        trpc(
          base,
          'experiment.create',
          {
            taskId: 'game24',
            items: ['4 9 10 13', '1 1 4 6', '2 3 4 5', '1 2 3 4'],
            configurations: [configuration('a', 1), configuration('b', 2)],
          },
          key,
        ),
      );
      tally.experiments++;
    } catch (error) {
      tally.errors.push(`experiment.create: ${(error as Error).message}`);
    }
    for (let i = 0; i < 60 && !until(); i++) await sleep(1_000);
  }
}

/** The newest runs, to follow. */
async function recentRuns(instances: Instance[], key: string | null): Promise<string[]> {
  return onAnyInstance(instances, async (base) => {
    const input = encodeURIComponent(JSON.stringify({ json: { limit: 20 } }));
    const res = await fetch(`${base}/api/trpc/run.list?input=${input}`, { headers: headers(key) });
    if (!res.ok) throw new HttpError(res.status, 'run.list');
    const body = (await res.json()) as { result: { data: { json: { items: { id: string }[] } } } };
    return body.result.data.json.items.map((r) => r.id);
  });
}

/**
 * Follows one run to its end through whichever instance is up, reconnecting after a kill with ?after= the last seq
 * seen; every event must be the one after the last (each exactly once, in order).
 */
async function followRun(
  instances: Instance[],
  key: string | null,
  runId: string,
  who: number,
  tally: Tally,
  stopAt: () => boolean,
) {
  // each follower's own record of a run (two followers may follow one run: each must see it whole)
  const seen = { runId, seqs: [] as number[], ended: false };
  tally.followed.set(`${who}:${runId}`, seen);
  while (!seen.ended && !stopAt()) {
    const instance = pick(instances);
    const after = seen.seqs.at(-1) ?? 0;
    const controller = new AbortController();
    const watchdog = setInterval(() => {
      if (!isUp(instance) || stopAt()) controller.abort();
    }, 200);
    try {
      const res = await fetch(`${instance.base}/api/runs/${runId}/events.ndjson?follow=1&after=${after}`, {
        headers: headers(key),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) throw new Error(`follow: ${res.status}`);
      const decoder = new TextDecoder();
      let buffered = '';
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          seen.ended = true; // the stream ends with the run
          break;
        }
        buffered += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (!line.trim()) continue;
          const event = JSON.parse(line) as ExplorationEvent;
          const expected = (seen.seqs.at(-1) ?? 0) + 1;
          if (event.seq !== expected)
            tally.violations.push(`follower of ${runId}: seq ${event.seq}, expected ${expected}`);
          seen.seqs.push(event.seq);
        }
      }
    } catch {
      tally.reconnects++;
      await sleep(200);
    } finally {
      clearInterval(watchdog);
    }
  }
}

async function follower(
  instances: Instance[],
  key: string | null,
  n: number,
  tally: Tally,
  until: () => boolean,
  stopAt: () => boolean,
) {
  while (!until()) {
    const runs = await recentRuns(instances, key).catch(() => []);
    const followedRuns = new Set([...tally.followed.values()].map((f) => f.runId));
    const runId = runs.find((id) => !followedRuns.has(id)) ?? runs[n % Math.max(1, runs.length)];
    if (!runId) {
      await sleep(500);
      continue;
    }
    await followRun(instances, key, runId, n, tally, stopAt);
  }
}

async function killer(instances: Instance[], tally: Tally, everyMs: number, until: () => boolean) {
  let next = 0;
  while (!until()) {
    await sleep(everyMs);
    if (until()) break;
    const victim = instances[next++ % instances.length] as Instance;
    await kill(victim);
    tally.kills++;
    await sleep(2_000);
    await start(victim).catch((error: unknown) =>
      tally.errors.push(`restart ${victim.name}: ${(error as Error).message}`),
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The checks, read from the database itself

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

async function logChecks(query: Query, tally: Tally): Promise<Check[]> {
  const checks: Check[] = [];
  const runs = await query(`SELECT "status", count(*) AS n FROM "Run" WHERE "importJobId" IS NULL GROUP BY "status"`);
  const byStatus = Object.fromEntries(runs.map((r) => [String(r.status), Number(r.n)]));
  const open = (byStatus.running ?? 0) + (byStatus.queued ?? 0);
  checks.push({
    name: 'every run finished or resumable',
    ok: open === 0,
    detail: Object.entries(byStatus)
      .map(([s, n]) => `${n} ${s}`)
      .join(', '),
  });
  const experiments = await query(`SELECT "status", count(*) AS n FROM "Experiment" GROUP BY "status"`);
  const unfinished = experiments.filter((e) => e.status !== 'finished').reduce((n, e) => n + Number(e.n), 0);
  checks.push({
    name: 'every experiment finished',
    ok: unfinished === 0 && experiments.length > 0,
    detail: `${tally.experiments} started; ${experiments.map((e) => `${Number(e.n)} ${String(e.status)}`).join(', ')}`,
  });
  const broken = await query(`SELECT r."id", r."lastSeq", count(e."seq") AS n, count(DISTINCT e."seq") AS d,
      coalesce(min(e."seq"), 0) AS lo, coalesce(max(e."seq"), 0) AS hi
    FROM "Run" r LEFT JOIN "Event" e ON e."runId" = r."id" GROUP BY r."id", r."lastSeq"
    HAVING count(e."seq") <> r."lastSeq" OR count(DISTINCT e."seq") <> r."lastSeq"
      OR coalesce(max(e."seq"), 0) <> r."lastSeq" OR (r."lastSeq" > 0 AND min(e."seq") <> 1)`);
  const [events] = await query(`SELECT count(*) AS n FROM "Event"`);
  checks.push({
    name: 'every log gap-free, without duplicates',
    ok: broken.length === 0,
    detail: `${Number(events?.n ?? 0).toLocaleString('en-US')} events; ${broken.length} runs broken${broken.length ? `: ${JSON.stringify(broken.slice(0, 3))}` : ''}`,
  });
  const lastSeqs = new Map(
    (await query(`SELECT "id", "lastSeq" FROM "Run"`)).map((r) => [String(r.id), Number(r.lastSeq)]),
  );
  let seen = 0;
  let short = 0;
  for (const followed of tally.followed.values()) {
    seen += followed.seqs.length;
    if (followed.ended && followed.seqs.length !== lastSeqs.get(followed.runId)) short++;
  }
  const endedRuns = [...tally.followed.values()].filter((f) => f.ended).length;
  checks.push({
    name: 'every follower saw each event exactly once',
    ok: tally.violations.length === 0 && short === 0,
    detail:
      `${tally.followed.size} runs followed (${endedRuns} to their end), ${seen.toLocaleString('en-US')} events seen, ` +
      `${tally.reconnects} reconnects; ${tally.violations.length} out of order or repeated, ${short} ended short` +
      (tally.violations.length ? `: ${tally.violations.slice(0, 3).join('; ')}` : ''),
  });
  let itemsWrong = 0;
  for (const [runId, sent] of tally.itemsSent) {
    const [row] = await query(`SELECT count(*) AS n FROM "IngestItem" WHERE "runId" = '${runId}'`);
    if (Number(row?.n ?? -1) !== sent) itemsWrong++;
  }
  checks.push({
    name: "every external client's items stored once",
    ok: itemsWrong === 0,
    detail: `${tally.externalRuns.length} external runs, ${[...tally.itemsSent.values()].reduce((a, b) => a + b, 0)} items; ${itemsWrong} runs differ`,
  });
  const [staged] = await query(`SELECT count(*) AS n FROM "Run" WHERE "importJobId" IS NOT NULL`);
  const [unnamed] = await query(
    `SELECT count(*) AS n FROM "PromptUse" u LEFT JOIN "PromptText" t ON t."hash" = u."hash" WHERE t."hash" IS NULL`,
  );
  checks.push({
    name: 'no staged import left, no prompt use without its text',
    ok: Number(staged?.n) === 0 && Number(unnamed?.n) === 0,
    detail: `${tally.imports} imports stored, ${tally.importsFailed} cut by a kill; ${Number(staged?.n)} staged runs left, ${Number(unnamed?.n)} uses without text`,
  });
  return checks;
}

async function budgetCheck(query: Query): Promise<Check> {
  const people = await query(`SELECT "ownerId", sum("cost") AS spent, count(*) AS runs FROM "Run"
    WHERE "ownerId" IS NOT NULL AND "importTag" IS NULL AND "importJobId" IS NULL GROUP BY "ownerId"`);
  const ledger = new Map(
    (await query(`SELECT "ownerId", sum("usd") AS usd FROM "DailySpend" GROUP BY "ownerId"`)).map((r) => [
      String(r.ownerId),
      Number(r.usd),
    ]),
  );
  // what one call of these runs cost at most: the in-flight calls are the only way past the cap
  const calls = await query(`SELECT max(("payload"::jsonb ->> 'cost')::float) AS most FROM "Event"
    WHERE "type" = 'model.called'`);
  const mostPerCall = Number(calls[0]?.most ?? 0);
  let worst = 0;
  for (const p of people) worst = Math.max(worst, Math.max(Number(p.spent), ledger.get(String(p.ownerId)) ?? 0));
  if (process.env.SOAK_VERBOSE) {
    for (const p of people)
      console.log(
        `  ${String(p.ownerId)}: runs ${Number(p.runs)}, rows $${Number(p.spent).toFixed(4)}, ledger $${(ledger.get(String(p.ownerId)) ?? 0).toFixed(4)}`,
      );
  }
  const over = Math.max(0, worst - DAILY_BUDGET_USD);
  // 3 instances x 4 runs each at once x the few calls a run has in flight (its level's evaluations)
  const inFlight = 3 * 4 * 4;
  return {
    name: 'no day past its budget by more than the calls in flight',
    ok: over <= inFlight * mostPerCall,
    detail:
      `${people.length} people, budget $${DAILY_BUDGET_USD.toFixed(2)} each; the most spent $${worst.toFixed(4)} ` +
      `(over by $${over.toFixed(4)}; the most one call cost $${mostPerCall.toFixed(4)})`,
  };
}

function report(title: string, checks: Check[], tally: Tally): boolean {
  console.log(`\n${title}`);
  console.log(
    `  kills ${tally.kills}; runs started ${tally.runsStarted} (${tally.runsRefusedByBudget} refused: a day spent); ` +
      `errors the clients saw ${tally.errors.length}${tally.errors.length ? `: ${tally.errors.slice(0, 3).join(' | ')}` : ''}`,
  );
  for (const check of checks) console.log(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  return checks.every((c) => c.ok);
}

/** Runs the work on `instances` for `seconds`, then lets the cluster finish what it runs. */
async function soak(instances: Instance[], keys: (string | null)[], seconds: number, killEveryMs: number) {
  const tally = newTally();
  const endAt = Date.now() + seconds * 1000;
  const until = () => Date.now() >= endAt;
  let followersStop = false;
  const small = await searchEvents(300);
  const importBody = JSON.stringify(exportFile(small.events, small.config));
  const key = keys[0] ?? null;
  const work = [
    startRuns(instances, keys, tally, until),
    ...Array.from({ length: EXTERNAL_CLIENTS }, (_, n) => externalClient(instances, key, n, tally, until)),
    importer(instances, key, importBody, tally, until),
    // experiments by the last person, whose day the run starter reaches last
    experimenter(instances, keys.at(-1) ?? null, tally, until),
    killer(instances, tally, killEveryMs, until),
  ];
  const followers = Array.from({ length: FOLLOWERS }, (_, n) =>
    follower(instances, key, n, tally, until, () => followersStop),
  );
  const progress = setInterval(() => {
    const left = Math.max(0, Math.round((endAt - Date.now()) / 1000));
    console.log(
      `  ${left}s left: ${tally.runsStarted} runs, ${tally.externalRuns.length} external, ${tally.imports} imports, ` +
        `${tally.experiments} experiments, ${tally.kills} kills`,
    );
  }, 30_000);
  await Promise.all(work);
  clearInterval(progress);
  // the drain: every instance up, the interrupted runs taken over and finished, the followers to their runs' ends
  for (const instance of instances) if (!isUp(instance)) await start(instance);
  const drainUntil = Date.now() + DRAIN_MS;
  const openRuns = async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { limit: 1, status: 'running' } }));
    const queued = encodeURIComponent(JSON.stringify({ json: { limit: 1, status: 'queued' } }));
    const base = pick(instances).base;
    const [a, b] = await Promise.all(
      [input, queued].map(async (q) => {
        const res = await fetch(`${base}/api/trpc/run.list?input=${q}`, { headers: headers(key) });
        return ((await res.json()) as { result: { data: { json: { items: unknown[] } } } }).result.data.json.items
          .length;
      }),
    );
    return (a ?? 0) + (b ?? 0);
  };
  while (Date.now() < drainUntil && (await openRuns().catch(() => 1)) > 0) await sleep(1_000);
  followersStop = true;
  await Promise.all(followers);
  return tally;
}

// ---------------------------------------------------------------------------------------------------------------

async function soakPostgres(): Promise<boolean> {
  const postgres: PostgresCluster = startPostgres(await freePort());
  const instances: Instance[] = [];
  try {
    const url = await postgres.createDatabase('soak');
    const env = {
      DATABASE_URL: url,
      ARBORIST_DEMO: '0',
      ARBORIST_LOG_FORMAT: 'json',
      ARBORIST_AUTH: '1',
      ARBORIST_SECRET: SECRET,
      ARBORIST_ADMIN_EMAIL: ADMIN.email,
      ARBORIST_ADMIN_PASSWORD: ADMIN.password,
      ARBORIST_DAILY_BUDGET_USD: String(DAILY_BUDGET_USD),
      ARBORIST_PRICES: JSON.stringify(PRICES),
      ARBORIST_MAX_CONCURRENT_RUNS: '4',
      // a dead instance's runs are taken over within seconds, not the default 15
      ARBORIST_LEASE_MS: '3000',
    };
    for (const name of ['A', 'B', 'C']) {
      const port = await freePort();
      instances.push({
        name,
        port,
        base: `http://127.0.0.1:${port}`,
        env: { ...env, ARBORIST_INSTANCE_ID: `soak-${name}` },
        process: null,
        output: [],
      });
    }
    // the first alone (it makes the admin), then the others
    await start(instances[0] as Instance);
    await Promise.all(instances.slice(1).map(start));
    const base = (instances[0] as Instance).base;
    const adminKey = await apiKeyFor(base, ADMIN.email, ADMIN.password);
    const keys: string[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const email = `person${i}@soak.test`;
      await trpc(base, 'users.create', { email, role: 'member', password: PASSWORD }, adminKey);
      keys.push(await apiKeyFor(base, email, PASSWORD));
    }
    console.log(
      `PostgreSQL: 3 instances in team mode, ${PEOPLE} people with $${DAILY_BUDGET_USD} a day each, ${SECONDS}s`,
    );
    const tally = await soak(instances, keys, SECONDS, KILL_EVERY_MS);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const query: Query = async (sql) => (await client.query(sql)).rows as Record<string, unknown>[];
      const checks = await logChecks(query, tally);
      checks.push(await budgetCheck(query));
      checks.push(await amcheck(query));
      return report('PostgreSQL soak', checks, tally);
    } finally {
      await client.end();
    }
  } finally {
    for (const instance of instances) await kill(instance);
    postgres.stop();
  }
}

/** PostgreSQL's own checks of every B-tree index (parents too) and every table's heap. */
async function amcheck(query: Query): Promise<Check> {
  await query('CREATE EXTENSION IF NOT EXISTS amcheck');
  const indexes = await query(`SELECT c.oid::regclass::text AS name FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE a.amname = 'btree' AND c.relnamespace = 'public'::regnamespace`);
  for (const index of indexes) await query(`SELECT bt_index_parent_check('${String(index.name)}'::regclass, true)`);
  const tables = await query(`SELECT c.oid::regclass::text AS name FROM pg_class c
    WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace`);
  let corrupt = 0;
  for (const table of tables) {
    corrupt += (await query(`SELECT * FROM verify_heapam('${String(table.name)}'::regclass)`)).length;
  }
  return {
    name: 'amcheck: indexes and heaps',
    ok: corrupt === 0,
    detail: `${indexes.length} B-tree indexes checked with their parents, ${tables.length} tables' heaps: ${corrupt} problems`,
  };
}

async function soakSqlite(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-soak-'));
  const file = path.join(dir, 'soak.db');
  const port = await freePort();
  const instance: Instance = {
    name: 'S',
    port,
    base: `http://127.0.0.1:${port}`,
    env: { DATABASE_URL: `file:${file}`, ARBORIST_DEMO: '0' },
    process: null,
    output: [],
  };
  try {
    await start(instance);
    const seconds = Math.max(30, Math.round(SECONDS / 3));
    console.log(`\nSQLite: one instance in local mode, ${seconds}s`);
    const tally = await soak([instance], [null], seconds, KILL_EVERY_MS / 2);
    await kill(instance);
    const db = new Database(file, { readonly: true });
    try {
      const query: Query = async (sql) => db.prepare(sql).all() as Record<string, unknown>[];
      const checks = await logChecks(query, tally);
      const integrity = db.pragma('integrity_check', { simple: true });
      checks.push({ name: "SQLite's integrity_check", ok: integrity === 'ok', detail: String(integrity) });
      return report('SQLite soak', checks, tally);
    } finally {
      db.close();
    }
  } finally {
    await kill(instance);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  ensureBuild('the soak');
  const started = Date.now();
  let ok = true;
  if (DATABASES.has('postgresql')) ok = (await soakPostgres()) && ok;
  if (DATABASES.has('sqlite')) ok = (await soakSqlite()) && ok;
  console.log(`\nsoak ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(ok ? 0 : 1);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
