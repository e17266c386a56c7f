// What the Python client does with items that cannot go as they are, run by python3 against lib/sdk's loopback test
// server: values JSON lacks are converted where a number or text says the same (Fraction, Decimal, datetime, set)
// and the one item that cannot be sent is refused on the spot, with a warning naming it and the field, while the rest
// of the run goes on and finishes; every item the server refuses is explained with the server's reason, a burst of
// them summed up rather than flooding stderr; finish() records why the search ended, as the README documents.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishReasonSchema } from '../../contract/vocabulary';
import { python, PYTHON_DIR as DIR, startFakeIngestServer, type FakeIngestServer } from '../testing';

let server: FakeIngestServer;

beforeEach(async () => {
  server = await startFakeIngestServer();
});
afterEach(() => server.close());

/** The lines the client wrote to stderr through its default warning handler. */
const warningLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('arborist: '));

const items = (run = 'run1') => server.runs.get(run)?.items ?? [];
const node = (id: string) => items().find((i) => i.op === 'node' && i.id === id);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

interface Summary {
  finished: boolean;
  stats: { sent: number; dropped: number; dropped_by: Record<string, number> };
}

describe('the Python client, with values JSON lacks', () => {
  it('converts Fraction, Decimal, datetime, set, tuple and huge ints; refuses only the item with NaN, Infinity or an object, and finishes the run', async () => {
    const { done } = python(
      [server.url],
      `
import sys, json, datetime
from decimal import Decimal
from fractions import Fraction
from arborist_client import Arborist
run = Arborist(sys.argv[1], flush_interval=0.02).start_run("g")
run.node("root", None, metadata={"when": datetime.datetime(2024, 5, 1, 12, 30), "day": datetime.date(2024, 5, 1)})
meta = {"value": Fraction(7, 3), "whole": Fraction(6, 3), "price": Decimal("0.10"), "count": Decimal("12"),
        "tags": {"b", "a"}, "pair": (1, Fraction(1, 2)), "big": 2**64, 3: "three"}
run.node("a", "root", score=Fraction(1, 2), metadata=meta)
meta["value"] = "changed after the call"   # what was sent is what the call was given
run.node("b", "root", metadata={"nested": {"ratio": float("nan")}})
run.annotate("b", scores={"x": 1})          # about b, which was never sent: dropped with it
run.node("c", "root", metadata={"model": object()})
run.node("d", "root", scores={"value": float("inf")})
run.node("e", "root", thought="after the bad ones", metadata={"value": Fraction(7, 3)})
print(json.dumps(run.finish(success=True)))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const summary = JSON.parse(out.stdout) as Summary;
    expect(summary.finished).toBe(true);
    expect(summary.stats.dropped_by).toMatchObject({ invalid: 3, dependent: 1, closed: 0 });

    // one line per refused item, naming the call's item and the field, and NaN as NaN
    const lines = warningLines(out.stderr);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/node "b" \(item 3\) was not sent: metadata\.nested\.ratio is NaN/);
    expect(lines[0]).toContain('later items about node b');
    expect(lines[1]).toMatch(/node "c" \(item 5\) was not sent: metadata\.model is of type object/);
    expect(lines[2]).toMatch(/node "d" .*scores\.value is Infinity/);
    expect(out.stderr).not.toContain('sender stopped');

    // the rest arrived, numbered without gaps, with the values converted
    expect(items().map((i) => i.op)).toEqual(['node', 'node', 'node', 'finish']);
    expect(items().map((i) => i.seq)).toEqual(oneTo(4));
    expect(node('root')!.metadata).toEqual({ when: '2024-05-01T12:30:00', day: '2024-05-01' });
    expect(node('a')).toMatchObject({ score: 0.5 });
    expect(node('a')!.metadata).toEqual({
      value: 7 / 3,
      whole: 2,
      price: 0.1,
      count: 12,
      tags: ['a', 'b'],
      pair: [1, 0.5],
      big: '18446744073709551616',
      '3': 'three',
    });
    expect(node('e')).toMatchObject({ thought: 'after the bad ones', metadata: { value: 7 / 3 } });
  }, 30_000);

  it('names a NaN score as NaN without asking the server, and explains each item the server refuses with its reason', async () => {
    // the fake server refuses what the real one would (a score over 1, a thought over the cap) at the named field
    server.refuse = (item, i) =>
      typeof item.score === 'number' && item.score > 1
        ? `items[${i}].score`
        : typeof item.thought === 'string' && item.thought.length > 100_000
          ? `items[${i}].thought`
          : null;
    const { done } = python(
      [server.url],
      `
import sys, json
from arborist_client import Arborist
# one batch, sent by finish(), whatever the machine's speed: the seqs the warnings name are then known
run = Arborist(sys.argv[1], flush_interval=30).start_run("g")
run.node("root", None)
run.node("orphan", "nowhere")
run.node("long", "root", thought="x" * 1_000_000)
run.node("five", "root", score=5)
run.node("nan", "root", score=float("nan"))
run.annotate("five", scores={"v": 1})  # about a refused node: dropped with it
run.node("ok", "root", score=0.5)
print(json.dumps(run.finish()))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const summary = JSON.parse(out.stdout) as Summary;
    expect(summary.finished).toBe(true);
    expect(summary.stats.dropped_by).toMatchObject({ invalid: 4, dependent: 1 });
    const lines = warningLines(out.stderr);
    expect(lines).toHaveLength(4);
    // the local refusal comes first: it is named when queued, before anything is sent
    expect(lines[0]).toMatch(/node "nan" .*score is NaN/);
    expect(lines.slice(1).join('\n')).toMatch(
      /the server refused node "orphan" \(seq 2\): parent: no node nowhere in this run/,
    );
    expect(lines.slice(1).join('\n')).toMatch(/the server refused node "long" \(seq 3\): thought: refused by the test/);
    expect(lines.slice(1).join('\n')).toMatch(/the server refused node "five" \(seq 4\): score: refused by the test/);
    expect(items().map((i) => i.id ?? i.op)).toEqual(['root', 'ok', 'finish']);
    expect(items().map((i) => i.seq)).toEqual(oneTo(3));
  }, 30_000);

  it('sums up a burst of refusals after a few lines, and says how many it did not show, at the end of the window or of the run', async () => {
    const { done } = python(
      [server.url],
      `
import sys, json, time
from arborist_client import Arborist
lines = []
# one batch (sent by flush()), so the 40 refusals come in one answer, within one window
arborist = Arborist(sys.argv[1], warning_limit=5, warning_interval=0.5, flush_interval=30,
                    on_warning=lambda kind, message: lines.append([kind, message]))
run = arborist.start_run("g")
run.node("root", None)
for i in range(40):
    run.node(f"n{i}", "missing")
run.node("ok", "root")
run.flush()
time.sleep(1)  # the window ends while the search goes on
lines.append(["-", "before finish"])
summary = run.finish()
print(json.dumps({"lines": lines, "summary": summary}))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const { lines, summary } = JSON.parse(out.stdout) as { lines: [string, string][]; summary: Summary };
    expect(summary).toMatchObject({ finished: true, stats: { dropped_by: { invalid: 40 } } });
    expect(lines).toHaveLength(7);
    expect(lines.slice(0, 5).every(([kind, message]) => kind === 'invalid' && /node "n\d+"/.test(message))).toBe(true);
    expect(lines[5]![0]).toBe('invalid');
    expect(lines[6]![1]).toBe('before finish'); // said when the window ended, not only at the end of the run
    expect(lines[5]![1]).toMatch(/and 35 more refused items/);
    expect(items().map((i) => i.id ?? i.op)).toEqual(['root', 'ok', 'finish']);
  }, 30_000);
});

describe('the Python client, finishing', () => {
  it('records a solved run as terminated, an unsolved one as frontier-empty, and mends an unknown reason with a warning', async () => {
    const { done } = python(
      [server.url],
      `
import sys, json
from arborist_client import Arborist, FINISH_REASONS
arborist = Arborist(sys.argv[1])
for goal, kwargs in (("solved", {"success": True}), ("unsolved", {}), ("own words", {"success": True, "reason": "solved"}),
                     ("budget", {"reason": "budget", "detail": "spent $2"})):
    run = arborist.start_run(goal)
    run.wait_ready(5)
    run.node("root", None)
    run.node("a", "root")
    print(json.dumps(run.finish(**kwargs)["finished"]))
print(json.dumps(list(FINISH_REASONS)))
`,
    );
    const out = await done;
    expect(out.code).toBe(0);
    const printed = out.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(printed.slice(0, 4)).toEqual([true, true, true, true]);
    // the client's list is the contract's, and the README explains each
    expect(printed[4]).toEqual(finishReasonSchema.options);
    const readme = readFileSync(`${DIR}/README.md`, 'utf8');
    for (const reason of finishReasonSchema.options) expect(readme).toContain(`\`${reason}\``);

    const finish = (goal: string) =>
      [...server.runs.values()].find((r) => r.create.goal === goal)!.items.find((i) => i.op === 'finish');
    expect(finish('solved')).toMatchObject({ success: true, reason: 'terminated' });
    expect(finish('unsolved')).toMatchObject({ success: false, reason: 'frontier-empty' });
    expect(finish('own words')).toMatchObject({ success: true, reason: 'terminated' });
    expect(finish('budget')).toMatchObject({ reason: 'budget', detail: 'spent $2' });
    const lines = warningLines(out.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /finish reason "solved" is not one of terminated, frontier-empty, .*error; sent as terminated/,
    );
  }, 30_000);
});
