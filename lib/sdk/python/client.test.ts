// The Python client (arborist_client.py) run by python3 against lib/sdk's loopback test server: the Game of 24
// example streams a whole search and finishes with its verified answer; delivery survives a lost answer and 5xx
// without storing twice; a dead server neither crashes nor hangs the program; steering is applied and acknowledged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { python, PYTHON_DIR as DIR, startFakeIngestServer, until, type FakeIngestServer } from '../testing';

let server: FakeIngestServer;

beforeEach(async () => {
  server = await startFakeIngestServer();
});
afterEach(() => server.close());

const items = () => server.runs.get('run1')?.items ?? [];
const seqs = () => items().map((i) => i.seq);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('the Python client', () => {
  it('runs the Tree-of-Thoughts Game of 24 example: the whole search streamed, pruned by its beam, and a verified answer', async () => {
    const { done } = python([`${DIR}/examples/tot_game24.py`, '--server', server.url, '--numbers', '4 9 10 13']);
    const out = await done;
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Run:    ${server.url}/runs/run1`);
    expect(out.stdout).toMatch(/Answer: .* = 24 \(verified\)/);

    const run = server.runs.get('run1')!;
    expect(run.create).toMatchObject({ goal: '4 9 10 13', task: 'game24', agent: 'tot_game24.py' });
    expect(run.create.commands).toEqual(['prune', 'pause', 'resume', 'step', 'abort']);
    expect(seqs()).toEqual(oneTo(items().length));
    expect(items()[0]).toMatchObject({ op: 'node', id: 'root', parent: null, thought: '4 9 10 13' });
    const nodes = items().filter((i) => i.op === 'node');
    expect(nodes.length).toBeGreaterThan(50);
    expect(nodes[1]).toMatchObject({ scores: { value: expect.any(Number), closeness: expect.any(Number) } });
    expect(nodes[1]!.metadata).toMatchObject({ left: expect.any(String), judgement: expect.any(String) });
    expect(items().filter((i) => i.op === 'prune').length).toBeGreaterThan(0);
    const finish = items().at(-1)!;
    expect(finish).toMatchObject({ op: 'finish', success: true, verified: true, reason: 'terminated' });
    const verify = items().find((i) => i.op === 'verify')!;
    expect(verify).toMatchObject({ node: finish.best, passed: true });
    expect(out.stdout).toMatch(
      new RegExp(`Sent: +${items().length} items, 0 retried, 0 dropped; finished on the server: yes`),
    );
  }, 60_000);

  it('retries a batch whose answer was lost, and 5xx answers, and the server stores each item once', async () => {
    server.loseNextAnswer = true;
    server.failNext = [503, 500];
    const { done } = python(
      [server.url],
      `
import sys, json
from arborist_client import Arborist
run = Arborist(sys.argv[1], retry_base=0.01, retry_max=0.05).start_run("g")
run.node("root", None)
for i in range(30):
    run.node(f"n{i}", "root", score=0.5)
print(json.dumps(run.finish()))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const summary = JSON.parse(out.stdout) as { finished: boolean; stats: Record<string, number> };
    expect(summary.finished).toBe(true);
    expect(seqs()).toEqual(oneTo(32));
    expect(summary.stats).toMatchObject({ sent: 32, dropped: 0 });
    expect(summary.stats.retried).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('neither raises nor hangs when no server answers: finish returns at its deadline with the drops counted', async () => {
    const dead = await startFakeIngestServer();
    const url = dead.url;
    await dead.close();
    const { done } = python(
      [url],
      `
import sys, json
from arborist_client import Arborist
warnings = []
run = Arborist(sys.argv[1], retry_base=0.01, retry_max=0.05, on_warning=lambda k, m: warnings.append(k)).start_run("g")
run.node("root", None)
run.node("a", "root")
run.call("a", response="x", input_tokens=3)
run.verify("a", True)
print(json.dumps({"ok": run.checkpoint(), "summary": run.finish(timeout=0.5), "warnings": warnings}))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout) as {
      ok: boolean;
      summary: { runId: null; finished: boolean; stats: { dropped: number } };
      warnings: string[];
    };
    expect(result).toMatchObject({ ok: true, summary: { runId: null, finished: false, stats: { dropped: 5 } } });
    expect(result.warnings).toEqual(['unreachable', 'unsent']);
  }, 30_000);

  it('exits without finish when no server answers, saying what it could not send (atexit)', async () => {
    const dead = await startFakeIngestServer();
    const url = dead.url;
    await dead.close();
    const { done } = python(
      [url],
      `
import sys
from arborist_client import Arborist
run = Arborist(sys.argv[1]).start_run("g")
run.node("root", None)
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('arborist: the program exited before the server created the run: 1 items unsent');
  }, 30_000);

  it('takes steering with the built-in handling: pause blocks checkpoint, a prune is applied, abort ends the loop; each acknowledged', async () => {
    const { done, out } = python(
      [server.url],
      `
import sys, time
from arborist_client import Arborist, BUILTIN_COMMANDS
run = Arborist(sys.argv[1], flush_interval=0.02).start_run("g", commands=BUILTIN_COMMANDS)
run.node("root", None)
run.node("a", "root")
run.node("a1", "a")
run.flush()
print("ready", flush=True)
steps = 0
while run.checkpoint():
    steps += 1
    time.sleep(0.01)
print("pruned a1:", run.is_pruned("a1"), "aborted by:", run.aborted_by, flush=True)
run.finish()
`,
    );
    await until(() => out().includes('ready'), 'the script to start');
    const acked = (n: number) => () => server.runs.get('run1')!.commands.filter((c) => c.ack).length === n;
    server.command('run1', 'pause');
    await until(acked(1), 'the pause acknowledged');
    server.command('run1', 'prune', 'a', 'ada');
    server.command('run1', 'prune', 'nope');
    await until(acked(3), 'the prunes acknowledged');
    server.command('run1', 'resume');
    server.command('run1', 'abort', null, 'grace');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('pruned a1: True aborted by: grace');

    const run = server.runs.get('run1')!;
    expect(run.commands.map((c) => c.ack)).toEqual([
      { outcome: 'applied', reason: null },
      { outcome: 'applied', reason: null },
      { outcome: 'refused', reason: 'no node nope in this run' },
      { outcome: 'applied', reason: null },
      { outcome: 'applied', reason: null },
    ]);
    const kinds = items()
      .map((i) => (i.type as string | undefined) ?? String(i.op))
      .filter((k) => k !== 'node');
    expect(kinds).toEqual([
      'steer.pause',
      'ack',
      'steer.prune',
      'ack',
      'ack',
      'steer.resume',
      'ack',
      'steer.abort',
      'ack',
      'finish',
    ]);
    expect(items().find((i) => i.type === 'steer.prune')!.payload).toEqual({ nodeId: 'a', actor: 'ada' });
    expect(items().at(-1)).toMatchObject({ reason: 'aborted', detail: 'aborted by grace' });
    expect(seqs()).toEqual(oneTo(items().length));
  }, 30_000);

  it("passes a breakpoint's pause through with its hit: the built-in handling pauses and says where; a handler gets it too", async () => {
    const hit = {
      breakpointId: 'vf',
      condition: { kind: 'verification-failed' as const },
      seq: 41,
      eventType: 'node.verified',
      nodeId: 'a',
      detail: 'a failed verification: 16, not 24',
    };
    const { done, out } = python(
      [server.url],
      `
import sys, json, time
from arborist_client import Arborist, BUILTIN_COMMANDS
breakpoints = [{"id": "vf", "enabled": True, "condition": {"kind": "verification-failed"}}]
arborist = Arborist(sys.argv[1], flush_interval=0.02)
run = arborist.start_run("g", commands=BUILTIN_COMMANDS, breakpoints=breakpoints)
seen = []
other = arborist.start_run("h", on_command=lambda command, run: seen.append(command.get("hit")))
run.wait_ready(5)
other.wait_ready(5)
print("ready", flush=True)
while not run.paused:
    time.sleep(0.01)
print("stopped at:", json.dumps(run.breakpoint_hit), flush=True)
while run.checkpoint() and run.breakpoint_hit is None and len(seen) < 2:
    time.sleep(0.01)
print("after resume:", run.breakpoint_hit, "handler saw:", json.dumps(seen), flush=True)
run.finish()
other.finish()
`,
    );
    await until(() => out().includes('ready'), 'the script to start');
    // the two runs are created side by side: told apart by their goals
    const byGoal = (goal: string) => [...server.runs.values()].find((r) => r.create.goal === goal)!;
    const [builtin, handled] = [byGoal('g'), byGoal('h')];
    expect(builtin.create.breakpoints).toEqual([
      { id: 'vf', enabled: true, condition: { kind: 'verification-failed' } },
    ]);
    server.command(builtin.id, 'pause', null, 'breakpoint', hit);
    server.command(handled.id, 'pause', null, 'breakpoint', hit);
    server.command(handled.id, 'resume', null, 'ada');
    await until(() => out().includes('stopped at:'), 'the pause applied');
    expect(JSON.parse(/stopped at: (.*)/.exec(out())![1]!)).toEqual(hit);
    server.command(builtin.id, 'resume', null, 'ada');
    const result = await done;
    expect(result.code).toBe(0);
    const [, after, seen] = /after resume: (\S+) handler saw: (.*)/.exec(result.stdout)!;
    expect([after, JSON.parse(seen!)]).toEqual(['None', [hit, null]]);
    expect(builtin.items.filter((i) => i.type).map((i) => i.payload)).toEqual([
      { actor: 'breakpoint' },
      { actor: 'ada' },
    ]);
  }, 30_000);
});
