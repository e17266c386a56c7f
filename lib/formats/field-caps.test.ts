// Per-field caps on imported files: a goal, thought, prompt, response or node's metadata over its cap refuses the
// file, with the field's path and the cap in the message; text at the cap passes, and files that were fine stay fine.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { MAX_METADATA_KEYS, MAX_METADATA_VALUE_CHARS } from '../contract/vocabulary';
import { buildExport, validateRunExport } from './export';
import { FIELD_CAPS } from './field-caps';
import { type ImportedRunDraft, type TotGame, parseTotLog } from './tot-log';

const SAMPLE = new URL('./fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);
const readSample = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];

function draft(): ImportedRunDraft {
  const parsed = parseTotLog(readSample(), { now: Date.UTC(2025, 0, 1) });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.runs[0]!;
}

/** The sample's first game as an export file's JSON value, for the test to edit. */
function exportValue(): { run: { goal: string }; events: ExplorationEvent[] } {
  const run = draft();
  const file = buildExport(
    {
      id: 'r1',
      taskId: run.taskId,
      goal: run.goal,
      modelId: run.modelId,
      modelLabel: run.modelLabel,
      modelSettings: null,
      config: run.config,
      seed: run.seed,
      status: 'finished',
      finishReason: null,
      createdAt: run.createdAt,
      startedAt: run.createdAt,
      finishedAt: null,
      importTag: null,
      parentRunId: null,
      parentNodeId: null,
    },
    run.events.map((e) => ({ ...e, runId: 'r1' })),
  );
  return JSON.parse(JSON.stringify(file)) as { run: { goal: string }; events: ExplorationEvent[] };
}

const errorOf = (value: unknown) => {
  const checked = validateRunExport(value);
  return checked.ok ? null : checked.error;
};

describe('an export file over a field cap', () => {
  it('is accepted as it is, and with text exactly at a cap', () => {
    expect(errorOf(exportValue())).toBeNull();
    const file = exportValue();
    const generated = file.events.find((e) => e.type === 'branches.generated') as Extract<
      ExplorationEvent,
      { type: 'branches.generated' }
    >;
    generated.payload.branches[0]!.thought = 't'.repeat(FIELD_CAPS.thought);
    expect(errorOf(file)).toBeNull();
  });

  it('is refused for a goal, a thought, a prompt or a response, naming the path and the cap', () => {
    // the run's goal is capped by the contract's own schema, whose message stays
    const goal = exportValue();
    goal.run.goal = 'g'.repeat(FIELD_CAPS.goal + 1);
    expect(errorOf(goal)).toMatch(/^run\.goal: Too big: expected string to have <=20000 characters/);

    const thought = exportValue();
    const i = thought.events.findIndex((e) => e.type === 'branches.generated');
    const generated = thought.events[i] as Extract<ExplorationEvent, { type: 'branches.generated' }>;
    generated.payload.branches[1]!.thought = 't'.repeat(FIELD_CAPS.thought + 5);
    expect(errorOf(thought)).toBe(
      `events[${i}].payload.branches[1].thought: 100,005 characters, over the 100,000-character cap on a thought`,
    );

    const call = exportValue();
    const c = call.events.findIndex((e) => e.type === 'model.called');
    const called = call.events[c] as Extract<ExplorationEvent, { type: 'model.called' }>;
    called.payload.messages = [{ role: 'user', content: 'p'.repeat(FIELD_CAPS.prompt + 1) }];
    expect(errorOf(call)).toBe(
      `events[${c}].payload.messages[0].content: 1,000,001 characters, over the 1,000,000-character cap on a prompt`,
    );
    called.payload.messages = [];
    called.payload.response = 'r'.repeat(FIELD_CAPS.response + 1);
    expect(errorOf(call)).toBe(
      `events[${c}].payload.response: 1,000,001 characters, over the 1,000,000-character cap on a response`,
    );
  });

  it("is refused for a node's metadata over the contract's caps, naming the event, the key and the cap", () => {
    const file = exportValue();
    const n = file.events.findIndex((e) => e.type === 'node.created');
    const created = file.events[n] as Extract<ExplorationEvent, { type: 'node.created' }>;
    const annotated = (metadata: Record<string, unknown>) => {
      const edited = exportValue();
      edited.events.splice(n + 1, 0, {
        ...created,
        type: 'node.annotated',
        payload: { nodeId: created.payload.nodeId, metadata },
      } as unknown as ExplorationEvent);
      edited.events.forEach((event, i) => (event.seq = i + 1));
      return edited;
    };
    expect(errorOf(annotated({ board: 'b'.repeat(MAX_METADATA_VALUE_CHARS - 2) }))).toBeNull();
    expect(errorOf(annotated({ board: 'b'.repeat(MAX_METADATA_VALUE_CHARS) }))).toBe(
      `events[${n + 1}].payload.metadata.board: 131,074 characters of JSON, over the 131,072-character cap on a metadata value`,
    );
    const keys = Object.fromEntries(Array.from({ length: MAX_METADATA_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expect(errorOf(annotated(keys))).toBe(
      `events[${n + 1}].payload.metadata: 65 keys, over the 64-key cap on a node's metadata`,
    );
    // two annotations of 40 keys each fit one by one, but the node would gather 80
    const twice = annotated(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a${i}`, i])));
    twice.events.splice(n + 2, 0, {
      ...twice.events[n + 1]!,
      payload: {
        nodeId: created.payload.nodeId,
        metadata: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`b${i}`, i])),
      },
    } as ExplorationEvent);
    twice.events.forEach((event, i) => (event.seq = i + 1));
    expect(errorOf(twice)).toBe(
      `events[${n + 2}]: node.annotated: node "${created.payload.nodeId}"'s metadata: 80 keys, over the 64-key cap on a node's metadata`,
    );
  });

  it('keeps the schema’s own message first', () => {
    const file = exportValue();
    const call = file.events.find((e) => e.type === 'model.called') as Extract<
      ExplorationEvent,
      { type: 'model.called' }
    >;
    call.payload.response = 'r'.repeat(FIELD_CAPS.response + 1);
    file.events[3]!.seq = 99;
    expect(errorOf(file)).toBe('events[3].seq: expected 4, got 99');
  });
});

describe('a Tree-of-Thoughts log over a field cap', () => {
  it('is refused for a candidate over the thought cap, naming where it is in the file', () => {
    const log = readSample() as unknown as { steps: { new_ys: string[] }[] }[];
    log[2]!.steps[1]!.new_ys[0] = 'x'.repeat(FIELD_CAPS.thought + 1);
    const parsed = parseTotLog(log);
    expect(parsed.ok ? null : parsed.error).toBe(
      'not a usable Tree-of-Thoughts log: [2].steps[1].new_ys[0]: 100,001 characters, over the 100,000-character cap on a thought',
    );
  });
});
