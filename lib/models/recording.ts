/**
 * Record and replay of model calls, so a run made with a real model can be made again offline with the same
 * answers. A recording is plain, versioned JSON:
 *   { format: 'arborist.recording', version: 1, modelId, calls: [{ fingerprint, purpose, messages, response }] }
 * where a call's fingerprint is the sha256 of a canonical JSON of (model id, purpose, messages, temperature,
 * maxTokens): the request as the engine asked it, not the backend's settings. A recording holds prompts, answers
 * and token counts, never a key.
 *
 * - RecordingModel wraps any LanguageModel and records every call that succeeds, in the order the calls were made.
 * - ReplayModel answers from a recording by fingerprint; identical requests get their recorded answers in order;
 *   a request that was never recorded (or asked more often than recorded) fails as ModelError 'not-recorded' with
 *   its fingerprint and purpose. It reports, it never invents. Its id is the recorded model's id, so prices and
 *   labels stay honest.
 * - recordingFromEvents builds a recording from a run's event log: every model.called event already holds the
 *   messages, the response text and the usage, so a run's log *is* its recording and nothing else is stored.
 *   The events do not hold temperature or maxTokens; the engine sets neither today, so fingerprints match those
 *   RecordingModel computes. If the engine starts setting them, model.called must record them too.
 * Known limit: a replay run resumed after a restart starts its queues again from the first answer, which only
 * matters when it asks the very same request more than once.
 * Not responsible for where recordings are kept (lib/server/model-factory.ts) or for the backends themselves.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ExplorationEvent } from '../contract/events';
import type { ChatMessage, ModelPurpose } from '../contract/vocabulary';
import type { CompletionRequest, CompletionResponse, LanguageModel } from '../engine/index';
import { ModelError } from './model-error';
import type { ReportedUsage } from './openai';

export const RECORDING_FORMAT = 'arborist.recording';
export const RECORDING_VERSION = 1;

export interface RecordedCall {
  fingerprint: string;
  purpose: ModelPurpose;
  messages: ChatMessage[];
  response: { text: string; usage: ReportedUsage };
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: typeof RECORDING_VERSION;
  modelId: string;
  calls: RecordedCall[];
}

const purposeSchema = z.enum(['generate', 'evaluate', 'execute', 'synthesize']);

export const recordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  modelId: z.string().min(1),
  calls: z.array(
    z.object({
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
      purpose: purposeSchema,
      messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
      response: z.object({
        text: z.string(),
        usage: z.object({
          inputTokens: z.number().int().min(0),
          outputTokens: z.number().int().min(0),
          estimated: z.literal(true).optional(),
        }),
      }),
    }),
  ),
});

/** A recording from parsed JSON; throws saying what is wrong with it. */
export function parseRecording(data: unknown): Recording {
  const parsed = recordingSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `not an Arborist recording (version ${RECORDING_VERSION}): ${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'}`,
    );
  }
  return parsed.data as Recording;
}

export type FingerprintInput = Pick<CompletionRequest, 'purpose' | 'messages' | 'temperature' | 'maxTokens'>;

/** sha256 (hex) of a canonical JSON of the request and the model id: fixed order, no optional keys. */
export function fingerprint(request: FingerprintInput, modelId: string): string {
  const canonical = JSON.stringify([
    'arborist.fingerprint/1',
    modelId,
    request.purpose,
    request.messages.map((m) => [m.role, m.content]),
    request.temperature ?? null,
    request.maxTokens ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

function copyUsage(usage: ReportedUsage): ReportedUsage {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    ...(usage.estimated ? { estimated: true as const } : {}),
  };
}

/** Records every successful call of the model it wraps; answers exactly what the wrapped model answers. */
export class RecordingModel implements LanguageModel {
  readonly id: string;
  /** One slot per call in the order made: the call once it succeeded, null when it failed, undefined meanwhile. */
  private readonly slots: (RecordedCall | null | undefined)[] = [];

  constructor(readonly inner: LanguageModel) {
    this.id = inner.id;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const slot = this.slots.push(undefined) - 1;
    const messages = request.messages.map((m) => ({ role: m.role, content: m.content }));
    try {
      const response = await this.inner.complete(request);
      this.slots[slot] = {
        fingerprint: fingerprint(request, this.id),
        purpose: request.purpose,
        messages,
        response: { text: response.text, usage: copyUsage(response.usage) },
      };
      return response;
    } catch (error) {
      this.slots[slot] = null;
      throw error;
    }
  }

  /** The calls that succeeded so far (calls still in flight are not in it). */
  recording(): Recording {
    return {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      modelId: this.id,
      calls: this.slots.filter((s): s is RecordedCall => Boolean(s)),
    };
  }

  toJSON(): { id: string; recording: true } {
    return { id: this.id, recording: true };
  }
}

/** Answers from a recording by fingerprint; reports a call that was never recorded. */
export class ReplayModel implements LanguageModel {
  readonly id: string;
  /** How the UI names it, e.g. "gpt-4o (replay)". */
  readonly label: string;
  private readonly byFingerprint = new Map<string, RecordedCall[]>();
  private readonly used = new Map<string, number>();

  constructor(recording: Recording) {
    const checked = parseRecording(recording);
    this.id = checked.modelId;
    this.label = `${checked.modelId} (replay)`;
    for (const call of checked.calls) {
      const queue = this.byFingerprint.get(call.fingerprint);
      if (queue) queue.push(call);
      else this.byFingerprint.set(call.fingerprint, [call]);
    }
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    request.signal?.throwIfAborted();
    const print = fingerprint(request, this.id);
    const queue = this.byFingerprint.get(print);
    const used = this.used.get(print) ?? 0;
    const call = queue?.[used];
    if (!call) {
      const why = queue ? `was recorded ${queue.length} time(s) and is now asked again` : 'was never recorded';
      throw new ModelError(
        'not-recorded',
        `replay: this ${request.purpose} call ${why} (fingerprint ${print.slice(0, 16)}…): a replay answers only the calls the recorded run made; a different goal, task, config or engine version asks different things`,
        { fingerprint: print, purpose: request.purpose },
      );
    }
    this.used.set(print, used + 1);
    return { text: call.response.text, usage: copyUsage(call.response.usage) };
  }

  /** Recorded calls not answered yet. */
  remaining(): number {
    let left = 0;
    for (const [print, queue] of this.byFingerprint) left += queue.length - (this.used.get(print) ?? 0);
    return left;
  }
}

/**
 * The recording of a run, from its event log: every model.called of `modelId` with a response and no error, in
 * log order (the order the engine used the answers). `modelId` defaults to the model named by the log's
 * run.started (the model's own id, e.g. "gpt-4o-mini").
 */
export function recordingFromEvents(events: readonly ExplorationEvent[], modelId?: string): Recording {
  const started = events.find((e) => e.type === 'run.started');
  const id = modelId ?? (started?.type === 'run.started' ? started.payload.modelId : null);
  if (!id) throw new Error('recordingFromEvents: the log has no run.started naming its model: pass the model id');
  const calls: RecordedCall[] = [];
  for (const event of events) {
    if (event.type !== 'model.called') continue;
    const p = event.payload;
    if (p.response === null || p.error !== null || p.modelId !== id) continue;
    const messages = p.messages.map((m) => ({ role: m.role, content: m.content }));
    calls.push({
      fingerprint: fingerprint({ purpose: p.purpose, messages }, id),
      purpose: p.purpose,
      messages,
      response: { text: p.response, usage: copyUsage(p.usage) },
    });
  }
  return { format: RECORDING_FORMAT, version: RECORDING_VERSION, modelId: id, calls };
}
