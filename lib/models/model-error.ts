/**
 * ModelError: a model backend's failure, as something a person can act on. Its `kind` says what went wrong, its
 * message says what happened and what to do. The engine records the message in the model.called event and treats
 * the call as failed (the node fails, the search backtracks); this module only names the failure.
 * Never put an API key in a ModelError: messages are stored, shown and exported (see redact() in openai.ts).
 * Not responsible for deciding what is retried (openai.ts) or for parsing a model's text (the tasks' parsers).
 */
import type { ModelAttempt, ModelPurpose, TokenUsage } from '../contract/vocabulary';

export type ModelErrorKind =
  /** 401/403: the key was refused. */
  | 'auth'
  /** 404 about the model: the server has no model of that name. */
  | 'unknown-model'
  /** Connection refused, host not found, connection reset or timed out while connecting. */
  | 'unreachable'
  /** 429 after every retry, or a quota that retries cannot fix. */
  | 'rate-limited'
  /** 400: the prompt does not fit the model's context window. */
  | 'context-length'
  /** Any other 4xx: the server refused the request as sent (a parameter it does not support, a wrong path). */
  | 'rejected'
  /** The body is not a chat completion: malformed JSON, no choices, no text. */
  | 'bad-response'
  /** 5xx after every retry. */
  | 'server'
  /** No complete answer within the call's time limit. */
  | 'timeout'
  /** Replay: this request was never recorded. */
  | 'not-recorded'
  /** The backend is not set up (e.g. no API key where one is required). */
  | 'config';

export interface ModelErrorDetails {
  /** The HTTP status, when the server answered. */
  status?: number;
  /** HTTP attempts made (1 + retries). */
  attempts?: number;
  /** Replay: the request's fingerprint and purpose. */
  fingerprint?: string;
  purpose?: ModelPurpose;
  /** Tokens the failed call used all the same (a completion with no text), when the server said. */
  usage?: TokenUsage | null;
  /** Every HTTP attempt of the call, the last one this failure (a backend that made none: absent). */
  attemptLog?: ModelAttempt[] | null;
}

export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  readonly status: number | null;
  readonly attempts: number | null;
  readonly fingerprint: string | null;
  readonly purpose: ModelPurpose | null;
  /** Read by the engine (model-call.ts) so a failed call that spent tokens is still counted and priced. */
  readonly usage: TokenUsage | null;
  /** Read by the engine (model-call.ts) so the call's model.called event shows each attempt of a retried call. */
  readonly attemptLog: ModelAttempt[] | null;

  constructor(kind: ModelErrorKind, message: string, details: ModelErrorDetails = {}) {
    super(message);
    this.name = 'ModelError';
    this.kind = kind;
    this.status = details.status ?? null;
    this.attempts = details.attempts ?? null;
    this.fingerprint = details.fingerprint ?? null;
    this.purpose = details.purpose ?? null;
    this.usage = details.usage ?? null;
    this.attemptLog = details.attemptLog ?? null;
  }

  /** Plain data (JSON.stringify of an Error drops its message). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      attempts: this.attempts,
      fingerprint: this.fingerprint,
      purpose: this.purpose,
      usage: this.usage,
      attemptLog: this.attemptLog,
    };
  }
}

export function isModelError(error: unknown): error is ModelError {
  return error instanceof ModelError;
}
