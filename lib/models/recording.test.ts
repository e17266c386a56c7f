/**
 * Record and replay: fingerprints, the recording's shape, identical requests answered in order, a call that was
 * never recorded reported (not invented), and a run's event log read as its recording.
 */
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import type { CompletionRequest, CompletionResponse, LanguageModel } from '../engine/index';
import { ModelError } from './model-error';
import type { ReportedUsage } from './openai';
import {
  RECORDING_FORMAT,
  RecordingModel,
  ReplayModel,
  fingerprint,
  parseRecording,
  recordingFromEvents,
} from './recording';

/** Answers "<n>: <last message>", counting calls; fails on a message saying "fail". */
class CountingModel implements LanguageModel {
  readonly id = 'gpt-4o';
  calls = 0;
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.calls += 1;
    const last = request.messages.at(-1)?.content ?? '';
    if (last === 'fail') throw new Error('backend down');
    return { text: `${this.calls}: ${last}`, usage: { inputTokens: last.length, outputTokens: 3 } };
  }
}

const req = (content: string, purpose: CompletionRequest['purpose'] = 'generate'): CompletionRequest => ({
  purpose,
  messages: [{ role: 'user', content }],
});

describe('fingerprint', () => {
  it('is the sha256 of the request and the model id, and changes with each of them', () => {
    const base = fingerprint(req('a'), 'gpt-4o');
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(req('a'), 'gpt-4o')).toBe(base);
    expect(fingerprint({ ...req('a'), temperature: undefined, maxTokens: undefined }, 'gpt-4o')).toBe(base);
    const others = [
      fingerprint(req('b'), 'gpt-4o'),
      fingerprint(req('a', 'evaluate'), 'gpt-4o'),
      fingerprint(req('a'), 'gpt-4o-mini'),
      fingerprint({ ...req('a'), temperature: 0 }, 'gpt-4o'),
      fingerprint({ ...req('a'), maxTokens: 10 }, 'gpt-4o'),
      fingerprint({ purpose: 'generate', messages: [{ role: 'system', content: 'a' }] }, 'gpt-4o'),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });
});

describe('RecordingModel and ReplayModel', () => {
  it('records successful calls as versioned plain JSON, and a replay answers them offline', async () => {
    const inner = new CountingModel();
    const recorder = new RecordingModel(inner);
    expect(recorder.id).toBe('gpt-4o');
    const live = [await recorder.complete(req('x')), await recorder.complete(req('y', 'evaluate'))];
    await expect(recorder.complete(req('fail'))).rejects.toThrow('backend down');
    const recording = recorder.recording();
    expect(recording).toMatchObject({ format: RECORDING_FORMAT, version: 1, modelId: 'gpt-4o' });
    expect(recording.calls).toHaveLength(2);
    expect(recording.calls[0]).toEqual({
      fingerprint: fingerprint(req('x'), 'gpt-4o'),
      purpose: 'generate',
      messages: [{ role: 'user', content: 'x' }],
      response: { text: '1: x', usage: { inputTokens: 1, outputTokens: 3 } },
    });
    // through JSON and back, as a file would be
    const replay = new ReplayModel(parseRecording(JSON.parse(JSON.stringify(recording))));
    expect(replay.id).toBe('gpt-4o');
    expect(replay.label).toBe('gpt-4o (replay)');
    expect([await replay.complete(req('y', 'evaluate')), await replay.complete(req('x'))]).toEqual([live[1], live[0]]);
    expect(replay.remaining()).toBe(0);
    expect(inner.calls).toBe(3);
  });

  it('answers identical requests in the order they were recorded, then reports the extra one', async () => {
    const recorder = new RecordingModel(new CountingModel());
    for (let i = 0; i < 3; i++) await recorder.complete(req('same'));
    const replay = new ReplayModel(recorder.recording());
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await replay.complete(req('same'))).text);
    expect(texts).toEqual(['1: same', '2: same', '3: same']);
    const error = await replay.complete(req('same')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('not-recorded');
    expect((error as ModelError).message).toContain('was recorded 3 time(s) and is now asked again');
  });

  it('records concurrent calls in the order they were made, not the order they finished', async () => {
    const slowFirst: LanguageModel = {
      id: 'gpt-4o',
      async complete(request) {
        const content = request.messages[0]?.content ?? '';
        await new Promise((r) => setTimeout(r, content === 'first' ? 30 : 1));
        return { text: `answer to ${content}`, usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const recorder = new RecordingModel(slowFirst);
    await Promise.all([recorder.complete(req('first')), recorder.complete(req('second'))]);
    expect(recorder.recording().calls.map((c) => c.response.text)).toEqual(['answer to first', 'answer to second']);
  });

  it('reports a call that was never recorded with its fingerprint and purpose', async () => {
    const recorder = new RecordingModel(new CountingModel());
    await recorder.complete(req('known'));
    const replay = new ReplayModel(recorder.recording());
    const error = (await replay.complete(req('unknown', 'evaluate')).catch((e: unknown) => e)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('not-recorded');
    expect(error.purpose).toBe('evaluate');
    expect(error.fingerprint).toBe(fingerprint(req('unknown', 'evaluate'), 'gpt-4o'));
    expect(error.message).toMatch(/^replay: this evaluate call was never recorded \(fingerprint [0-9a-f]{16}…\)/);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ kind: 'not-recorded', purpose: 'evaluate' });
  });

  it('keeps the estimated mark of a usage the server did not report', async () => {
    const usage: ReportedUsage = { inputTokens: 5, outputTokens: 1, estimated: true };
    const estimating: LanguageModel = { id: 'local-llm', complete: async () => ({ text: 'ok', usage }) };
    const recorder = new RecordingModel(estimating);
    await recorder.complete(req('q'));
    const replayed = await new ReplayModel(recorder.recording()).complete(req('q'));
    expect(replayed.usage).toEqual({ inputTokens: 5, outputTokens: 1, estimated: true });
  });

  it('refuses what is not a recording, saying what is wrong', () => {
    expect(() => parseRecording({ format: 'other', version: 1, modelId: 'x', calls: [] })).toThrow(
      /not an Arborist recording \(version 1\): format/,
    );
    expect(() => new ReplayModel({ format: RECORDING_FORMAT, version: 2, modelId: 'x', calls: [] } as never)).toThrow(
      /version/,
    );
  });
});

describe('recordingFromEvents', () => {
  const event = (seq: number, payload: Partial<Extract<ExplorationEvent, { type: 'model.called' }>['payload']>) =>
    ({
      runId: 'r',
      seq,
      ts: 0,
      type: 'model.called',
      payload: {
        nodeId: 'n0',
        purpose: 'generate',
        modelId: 'gpt-4o',
        messages: [{ role: 'user', content: 'q' }],
        response: 'a',
        error: null,
        usage: { inputTokens: 1, outputTokens: 1 },
        cost: 0,
        latencyMs: 5,
        ...payload,
      },
    }) as ExplorationEvent;

  it('takes every model.called of the model with a response and no error, in log order', () => {
    const events: ExplorationEvent[] = [
      event(1, { response: 'first' }),
      event(2, { response: null, error: 'the API key was refused' }),
      event(3, { response: 'other model', modelId: 'simulated' }),
      event(4, { response: 'second', purpose: 'evaluate', messages: [{ role: 'user', content: 'v' }] }),
    ];
    const recording = recordingFromEvents(events, 'gpt-4o');
    expect(recording.modelId).toBe('gpt-4o');
    expect(recording.calls.map((c) => c.response.text)).toEqual(['first', 'second']);
    expect(recording.calls[1]?.fingerprint).toBe(fingerprint(req('v', 'evaluate'), 'gpt-4o'));
    expect(parseRecording(JSON.parse(JSON.stringify(recording)))).toEqual(recording);
  });

  it('needs a model id when the log has no run.started to name it', () => {
    expect(() => recordingFromEvents([event(1, {})])).toThrow(/no run\.started naming its model/);
    expect(recordingFromEvents([event(1, {})], 'gpt-4o').calls).toHaveLength(1);
  });
});
