/**
 * One search attached to Arborist: what a program calls while it searches (node, annotate, start, call, complete,
 * verify, fail, prune, backtrack, answer, event), queued at once and sent in the background in numbered batches,
 * plus steering taken back (commands long-polled, handed to the program's handler or the built-in one, each
 * acknowledged) and a heartbeat. Every public method returns at once and never throws; finish() and flush() are the
 * only waits, and they end by their deadline whatever the server does.
 *
 * Delivery, in order of what can go wrong:
 * - items get their seq only when they go into a batch, and one batch is in flight at a time, so a retried batch
 *   carries the same numbers (the server stores it once) and nothing dropped before sending leaves a gap;
 * - network errors, time limits, 5xx and 429 retry the same batch with exponential backoff and jitter, for as long
 *   as the run lasts; meanwhile new items wait in a bounded buffer;
 * - when the buffer is full, the NEWEST items are dropped (counted, one warning per outage): the buffer then holds
 *   the search's beginning, which everything later refers to, so the page still shows a consistent tree up to the
 *   outage; dropping the oldest would cut nodes out from under the items that remain, and the server would refuse
 *   them. Later items about a dropped node are dropped with it (counted as `dependent`) instead of being refused;
 * - every item is checked and copied as JSON data when it is queued (json.ts): one holding a value JSON cannot
 *   carry (a cycle, a function, a symbol, NaN) is refused there, named in a warning, and never reaches a batch, where
 *   it would fail the batch of every item queued with it, retry after retry; BigInt, Date, Map, Set are converted;
 * - a 400 names the bad items: those (and items that depend on them) are dropped, each with a warning line giving
 *   the server's reason (rate-limited, item-warnings.ts), and the rest of the batch is sent again, renumbered (the
 *   server stored nothing); without names the whole batch is dropped;
 * - a 409 gap resends from the server's expectedSeq (from the items kept after sending) or renumbers from it; a
 *   conflict renumbers; closed (the run was finished or interrupted) stops the run's sending, counted.
 * Not responsible for the HTTP details (transport.ts) or the built-in steering's rules (steering.ts).
 */
import type {
  ClientEventType,
  IngestAppended,
  IngestCommand,
  IngestCommands,
  IngestCreated,
  IngestCreateInput,
  IngestError,
  IngestItemInput,
  IngestOpInput,
} from '../contract/ingest';
import type { Breakpoint, BreakpointHit } from '../contract/breakpoints';
import type { EventPayloads } from '../contract/events';
import type { JsonValue, ModelPurpose, FrontierMode, SteerKind, ProposedAction } from '../contract/vocabulary';
import { ItemWarnings, type WarningKind } from './item-warnings';
import { createdNode, describeItem, referencedNodes, type UnsequencedItem } from './items';
import { toJson } from './json';
import { CommandRefused, Steering, type SteeringEvent } from './steering';
import { every, later, pause } from './timers';
import { baseUrl, request, retryDelay, type BackoffOptions, type TransportOptions } from './transport';

export type { IngestCommand };

/** What a command handler returns: nothing (applied) or a refusal with its reason. A throw refuses too. */
export type CommandResult = void | { refused: string };
export type CommandHandler = (command: IngestCommand, run: ArboristRun) => CommandResult | Promise<CommandResult>;

export interface StartRunOptions {
  goal: string;
  /** The task's label, shown where a task's name is ("game24", "my-agent"). */
  task?: string;
  /** The program's own config, shown on the run page as it is given. */
  config?: Record<string, JsonValue>;
  /** The model the program uses, as a label. */
  model?: string;
  /** The program's name. */
  agent?: string;
  /**
   * Every command a person sends goes here; the program applies it (and records its effect, as the engine does)
   * or refuses it. Without it the built-in handling applies prune, pause, resume, step and abort (checkpoint(),
   * isPruned()).
   */
  onCommand?: CommandHandler;
  /**
   * The commands the program takes, shown on the page (others are offered as unavailable). Default: all six with
   * onCommand, none without (pass BUILTIN_COMMANDS to use the built-in handling).
   */
  commands?: readonly SteerKind[];
  /**
   * Breakpoints the run starts with (people can change them on the page). The server judges each item the program
   * sends; on a hit it sends a pause command carrying the hit (`command.hit`), so `commands` must include pause.
   */
  breakpoints?: readonly Breakpoint[];
}

export type DropReason = 'overflow' | 'invalid' | 'dependent' | 'closed' | 'unsent' | 'lost';

export interface RunStats {
  /** Items the server has (stored by this client's requests, a retried batch counted once). */
  sent: number;
  /** Of those, items a retry sent again that the server already had (the first answer was lost): stored once. */
  duplicates: number;
  /** Requests tried again after a network error, a time limit, a 5xx or a 429. */
  retried: number;
  /** Items given up on, all reasons together. */
  dropped: number;
  droppedBy: Record<DropReason, number>;
  /** Items waiting to be sent, the batch in flight included. */
  buffered: number;
  /** Commands received from the server. */
  commands: number;
}

export interface ArboristWarning {
  kind: WarningKind;
  message: string;
  runId: string | null;
}

/** The client's settings, resolved (client.ts). */
export interface RunSettings {
  transport: TransportOptions;
  batchSize: number;
  flushIntervalMs: number;
  maxBufferedItems: number;
  backoff: BackoffOptions;
  requestTimeoutMs: number;
  pollWaitMs: number;
  finishTimeoutMs: number;
  flushOnExit: boolean;
  warn: (warning: ArboristWarning) => void;
}

export interface FinishOptions {
  output?: string;
  /** The node whose answer is the output. */
  best?: string | null;
  success?: boolean;
  /**
   * Why the search stopped (README.md, "Finishing"): 'terminated' (it found its answer), 'frontier-empty' (nothing
   * left to explore), 'node-limit', 'iteration-limit' (an MCTS search's iterations), 'timeout', 'budget', 'aborted'
   * (a person stopped it), 'error'. Default: 'aborted' after an abort command, else 'terminated' when `success` is true, else 'frontier-empty'.
   */
  reason?: Extract<IngestOpInput, { op: 'finish' }>['reason'];
  detail?: string | null;
  /** Whether the answer was checked and held; null: not checked. */
  verified?: boolean | null;
  /** How long to wait for the server at most (default: the client's finishTimeoutMs). */
  timeoutMs?: number;
}

export interface FinishSummary {
  runId: string | null;
  /** The run's page (absolute), or null when the run was never created. */
  url: string | null;
  /** True when the server stored the finish: the run is finished there. */
  finished: boolean;
  stats: RunStats;
}

export interface NodeFields {
  thought?: string;
  action?: ProposedAction;
  /** 0..1: what orders and colours nodes. */
  score?: number;
  scores?: Record<string, number | null>;
  metadata?: Record<string, JsonValue>;
  mcts?: { q?: number | null; n?: number | null; uct?: number | null };
}

export interface CallFields {
  purpose?: ModelPurpose;
  model?: string;
  messages?: { role: 'system' | 'user' | 'assistant'; content: string }[];
  response?: string | null;
  error?: string | null;
  inputTokens?: number;
  outputTokens?: number;
  /** Dollars; null: unpriced. */
  cost?: number | null;
  latencyMs?: number;
}

type Phase = 'creating' | 'open' | 'closed';
type Numbered = IngestItemInput;

/** Runs that may still hold items when a Node process is about to exit (one beforeExit listener for all). */
const openRuns = new Set<ArboristRun>();
let exitHookInstalled = false;
function installExitHook(): void {
  const proc = (globalThis as { process?: { once?: unknown; on?: (e: string, f: () => void) => void } }).process;
  if (exitHookInstalled || typeof proc?.on !== 'function') return;
  exitHookInstalled = true;
  proc.on('beforeExit', () => {
    for (const run of openRuns) run.flushBeforeExit();
  });
}

/** The batch index a 400's issue names ("items[3].payload.nodeId", "[3].op"), or null. */
function issueIndex(path: string): number | null {
  const match = /^(?:items)?\[(\d+)\]/.exec(path);
  return match ? Number(match[1]) : null;
}

function strip(item: Numbered): UnsequencedItem {
  const { seq: _seq, ...rest } = item;
  return rest as UnsequencedItem;
}

export class ArboristRun {
  /** Resolves with the run's id and page once the server created it, or null when it never did. */
  readonly ready: Promise<{ runId: string; url: string } | null>;
  private resolveReady!: (value: { runId: string; url: string } | null) => void;

  private phase: Phase = 'creating';
  private runId: string | null = null;
  private pageUrl: string | null = null;
  private readonly queue: UnsequencedItem[] = [];
  private inFlight: Numbered[] | null = null;
  private nextSeq = 1;
  /** The last items stored, kept to resend from a 409 gap's expectedSeq. */
  private history: Numbered[] = [];
  private readonly droppedNodes = new Set<string>();
  private readonly counts = {
    sent: 0,
    duplicates: 0,
    retried: 0,
    commands: 0,
    droppedBy: { overflow: 0, invalid: 0, dependent: 0, closed: 0, unsent: 0, lost: 0 } as Record<DropReason, number>,
  };
  private readonly warned = new Set<WarningKind>();
  private readonly itemWarnings = new ItemWarnings((kind, message) => this.say(kind, message));
  /** Items the program has queued, counted from 1: how a warning names an item that never got a seq. */
  private queuedCount = 0;
  private pumping = false;
  private batchSize: number;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastRequestAt = 0;
  private readonly pollAbort = new AbortController();
  private lastCommandSeq = 0;
  private idleWaiters: (() => void)[] = [];
  private finishing: Promise<FinishSummary> | null = null;
  private finishStored = false;
  private finishQueued = false;
  /** The host is exiting (beforeExit): one try per batch, no backoff. */
  private exiting = false;
  private readonly steering: Steering;
  private readonly declared: readonly SteerKind[];
  /**
   * Held (a plain interval) while the search is paused by a person: the host then waits on steering, which only this
   * SDK's polling can bring, and a Node process whose only work is the SDK's unref'd timers would otherwise exit.
   */
  private keepAlive: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly settings: RunSettings,
    private readonly options: StartRunOptions,
  ) {
    this.batchSize = settings.batchSize;
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.steering = new Steering((event: SteeringEvent) =>
      this.enqueue({ type: event.type, payload: event.payload } as UnsequencedItem),
    );
    this.declared =
      options.commands ?? (options.onCommand ? ['prune', 'expand', 'pause', 'resume', 'step', 'abort'] : []);
    if (settings.flushOnExit) {
      installExitHook();
      openRuns.add(this);
    }
    void this.create();
  }

  /** The run's id once created (see `ready`), else null. */
  get id(): string | null {
    return this.runId;
  }

  /** The run's page (absolute URL) once created, else null. */
  get url(): string | null {
    return this.pageUrl;
  }

  // --- what the search says -------------------------------------------------------------------------------------

  /** A node under `parent` (null: the root, the goal itself; one per run). */
  node(id: string, parent: string | null, fields: NodeFields = {}): void {
    this.enqueue({ op: 'node', id, parent, ...fields, ts: Date.now() });
  }

  /** Named scores, metadata (a null value removes a key) and MCTS statistics, merged into what was said before. */
  annotate(node: string, fields: Pick<NodeFields, 'scores' | 'metadata' | 'mcts'>): void {
    this.enqueue({ op: 'annotate', node, ...fields, ts: Date.now() });
  }

  /** The node runs (execute) or grows its children (expand). */
  start(node: string, mode: FrontierMode = 'execute'): void {
    this.enqueue({ op: 'start', node, mode, ts: Date.now() });
  }

  /** A model call made for `node` (null: for the search as a whole). */
  call(node: string | null, fields: CallFields = {}): void {
    this.enqueue({ op: 'call', node, ...fields, ts: Date.now() });
  }

  /** The node's result; `answer: true` when it is a final answer to the goal. */
  complete(node: string, response: string, options: { answer?: boolean } = {}): void {
    this.enqueue({ op: 'complete', node, response, answer: options.answer ?? false, ts: Date.now() });
  }

  /** The node's result is a final answer to the goal (complete with answer: true). */
  answer(node: string, response: string): void {
    this.complete(node, response, { answer: true });
  }

  verify(node: string, passed: boolean, trace = ''): void {
    this.enqueue({ op: 'verify', node, passed, trace, ts: Date.now() });
  }

  fail(node: string, reason: string): void {
    this.enqueue({ op: 'fail', node, reason, ts: Date.now() });
  }

  /** The search pruned the node (and its subtree) by its own rule. */
  prune(node: string, reason?: string): void {
    this.steering.notePruned(node);
    this.enqueue({ op: 'prune', node, ...(reason === undefined ? {} : { reason }), ts: Date.now() });
  }

  backtrack(from: string, to: string | null, reason = ''): void {
    this.enqueue({ op: 'backtrack', from, to, reason, ts: Date.now() });
  }

  /** A canonical event, for programs that write Arborist's own events (the CLI's engine); checked by the server. */
  event<K extends ClientEventType>(type: K, payload: EventPayloads[K], ts: number = Date.now()): void {
    this.enqueue({ type, payload, ts } as UnsequencedItem);
  }

  // --- steering -----------------------------------------------------------------------------------------------

  /**
   * Call before each step of the search: waits while the run is paused, lets one step through after a step command
   * and returns false once the run was aborted (then stop and finish). Never rejects.
   */
  checkpoint(): Promise<boolean> {
    if (this.phase === 'closed' && this.finishing) return Promise.resolve(this.steering.aborted === null);
    return this.steering.checkpoint();
  }

  /** True when a person (or the search) pruned this node or an ancestor: skip it. */
  isPruned(id: string): boolean {
    return this.steering.isPruned(id);
  }

  get paused(): boolean {
    return this.steering.isPaused;
  }

  /** Who aborted the run (a person's name), or null. */
  get abortedBy(): string | null {
    return this.steering.aborted;
  }

  /**
   * The breakpoint hit the built-in steering is paused at (which breakpoint, the event, the node, `detail` saying
   * why), from the pause the server sent for it, until the search is resumed, stepped or aborted; else null.
   */
  get breakpointHit(): BreakpointHit | null {
    return this.steering.stoppedAt;
  }

  /** The built-in handling of a command, for an onCommand handler that takes some kinds itself. Throws to refuse. */
  applyBuiltin(command: IngestCommand): void {
    this.steering.apply(command);
  }

  // --- the end ------------------------------------------------------------------------------------------------

  /** Sends what is buffered now; resolves true when nothing is left to send (false at the deadline). */
  async flush(timeoutMs: number = this.settings.finishTimeoutMs): Promise<boolean> {
    if (this.phase === 'open') void this.pump();
    return this.waitIdle(timeoutMs);
  }

  /** Ends the run (run.finished), sends everything left and stops the heartbeat and polling. Never rejects. */
  finish(options: FinishOptions = {}): Promise<FinishSummary> {
    this.finishing ??= this.doFinish(options).catch(() => {
      this.close('unsent'); // a bug must not reach the host
      return { runId: this.runId, url: this.pageUrl, finished: this.finishStored, stats: this.stats() };
    });
    return this.finishing;
  }

  stats(): RunStats {
    const droppedBy = { ...this.counts.droppedBy };
    return {
      sent: this.counts.sent,
      duplicates: this.counts.duplicates,
      retried: this.counts.retried,
      dropped: Object.values(droppedBy).reduce((a, b) => a + b, 0),
      droppedBy,
      buffered: this.queue.length + (this.inFlight?.length ?? 0),
      commands: this.counts.commands,
    };
  }

  private async doFinish(options: FinishOptions): Promise<FinishSummary> {
    const abortedBy = this.steering.aborted;
    const best = options.best ?? null;
    this.steering.release();
    this.pollAbort.abort();
    this.enqueue(
      {
        op: 'finish',
        output: options.output ?? '',
        best: best !== null && this.droppedNodes.has(best) ? null : best,
        success: options.success ?? false,
        // sent explicitly: the server's default reads "nothing left to explore", wrong for a search that found its answer
        reason: options.reason ?? (abortedBy !== null ? 'aborted' : options.success ? 'terminated' : 'frontier-empty'),
        detail: options.detail ?? (abortedBy !== null ? `aborted by ${abortedBy}` : null),
        verified: options.verified ?? null,
        ts: Date.now(),
      },
      true,
    );
    this.finishQueued = true;
    const timeoutMs = options.timeoutMs ?? this.settings.finishTimeoutMs;
    const drained = await this.flush(timeoutMs);
    if (!drained) {
      const left = this.stats().buffered;
      this.warn(
        'unsent',
        this.runId
          ? `gave up after ${timeoutMs} ms with ${left} items unsent (the server did not take them); the run stays open there until its heartbeat times out`
          : `the server at ${baseUrl(this.settings.transport.server)} never created the run within ${timeoutMs} ms; ${left} items dropped`,
      );
    }
    this.close(drained ? 'closed' : 'unsent');
    return { runId: this.runId, url: this.pageUrl, finished: this.finishStored, stats: this.stats() };
  }

  /**
   * Node's beforeExit: one last try to send what is buffered. The requests keep the process alive while they run;
   * a failed one is not retried (exiting), so a program whose server is down exits at once, with a warning.
   */
  flushBeforeExit(): void {
    if (this.exiting || this.phase === 'closed') return;
    this.exiting = true;
    this.pollAbort.abort();
    const left = this.queue.length + (this.inFlight?.length ?? 0);
    if (left === 0) return;
    if (this.phase !== 'open') {
      this.warn('unsent', `the program exited before the server created the run: ${left} items unsent`);
      return this.close('unsent');
    }
    void this.pump();
  }

  // --- queueing -----------------------------------------------------------------------------------------------

  private drop(reason: DropReason, items: UnsequencedItem[]): void {
    this.counts.droppedBy[reason] += items.length;
    for (const item of items) {
      const created = createdNode(item);
      if (created) this.droppedNodes.add(created.id);
    }
  }

  /** Queues an item; `critical` ones (acks, the finish) are small and never dropped for room. */
  private enqueue(given: UnsequencedItem, critical = false): void {
    try {
      const item = this.encodable(given);
      if (!item) return;
      const created = createdNode(item);
      if (created) this.steering.noteNode(created.id, created.parent);
      if (!('op' in item)) this.notePaused(item.type);
      // after the finish, nothing: the server would refuse it (the run has ended)
      if (this.phase === 'closed' || this.finishQueued) return this.drop('closed', [item]);
      if (referencedNodes(item).some((id) => this.droppedNodes.has(id))) return this.drop('dependent', [item]);
      const isCritical = critical || ('op' in item && (item.op === 'ack' || item.op === 'finish'));
      if (!isCritical && this.queue.length >= this.settings.maxBufferedItems) {
        this.drop('overflow', [item]);
        this.warn(
          'overflow',
          `the server is not taking items and the buffer is full (${this.settings.maxBufferedItems}): dropping the newest ` +
            'items (and later ones about their nodes) until it drains, so the page keeps a consistent tree up to here',
        );
        return;
      }
      this.queue.push(item);
      this.schedule();
    } catch {
      // never into the host program
    }
  }

  /**
   * The item as plain JSON data (a copy), or null when it holds a value JSON cannot carry: then it is dropped here,
   * with a warning naming it and the field, and later items about its node are dropped with it.
   */
  private encodable(item: UnsequencedItem): UnsequencedItem | null {
    const n = ++this.queuedCount;
    const checked = toJson(item);
    if ('refused' in checked) {
      const { path, problem } = checked.refused;
      this.itemWarnings.say(
        'unsendable',
        `refused ${describeItem(item)} (item ${n}): ${path} ${problem}; not sent (nor later items about its node), the run goes on`,
      );
      this.drop('invalid', [item]);
      return null;
    }
    for (const { path, problem } of checked.notes) {
      this.itemWarnings.say('converted', `${describeItem(item)} (item ${n}): ${path} ${problem}`);
    }
    return checked.value as UnsequencedItem;
  }

  /** Whether the search waits on a person, from the events it records (built-in steering's or the program's own). */
  private notePaused(type: string): void {
    const paused =
      type === 'steer.pause' || type === 'run.paused'
        ? true
        : type === 'steer.resume' || type === 'steer.step' || type === 'steer.abort'
          ? false
          : null;
    if (paused === true && !this.keepAlive && this.phase !== 'closed') {
      this.keepAlive = setInterval(() => undefined, 60_000);
    } else if (paused === false && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }

  private schedule(): void {
    if (this.phase !== 'open') return;
    if (this.queue.length >= this.batchSize) {
      void this.pump();
    } else if (!this.flushTimer) {
      this.flushTimer = later(this.settings.flushIntervalMs, () => {
        this.flushTimer = null;
        void this.pump();
      });
    }
  }

  private waitIdle(timeoutMs: number): Promise<boolean> {
    const isIdle = () => this.queue.length === 0 && this.inFlight === null;
    if (isIdle() || this.phase === 'closed') return Promise.resolve(isIdle());
    return new Promise((resolve) => {
      // a plain timer: the caller awaits this on purpose, so the process stays until the deadline
      const deadline = setTimeout(() => done(), timeoutMs);
      const done = () => {
        clearTimeout(deadline);
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        resolve(isIdle());
      };
      this.idleWaiters.push(done);
    });
  }

  private notifyIdle(): void {
    if (this.phase === 'closed' || (this.queue.length === 0 && this.inFlight === null)) {
      for (const done of this.idleWaiters.slice()) done();
    }
  }

  /** A warning about the run as a whole: said once per kind until it clears (per-item ones: itemWarnings). */
  private warn(kind: WarningKind, message: string): void {
    if (this.warned.has(kind)) return;
    this.warned.add(kind);
    this.say(kind, message);
  }

  private say(kind: WarningKind, message: string): void {
    try {
      this.settings.warn({ kind, message, runId: this.runId });
    } catch {
      // a warning handler that throws must not reach the host either
    }
  }

  /** Stops everything; what is left is counted as dropped for `reason`. */
  private close(reason: DropReason): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.drop(reason, [...this.queue.splice(0), ...(this.inFlight ?? []).map(strip)]);
    this.inFlight = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.pollAbort.abort();
    this.steering.release();
    openRuns.delete(this);
    this.resolveReady(null); // no-op when it was created
    this.itemWarnings.summarize();
    this.notifyIdle();
  }

  // --- the server ---------------------------------------------------------------------------------------------

  private send<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs?: number, signal?: AbortSignal) {
    this.lastRequestAt = Date.now();
    return request<T>(this.settings.transport, method, path, body, timeoutMs ?? this.settings.requestTimeoutMs, signal);
  }

  private async create(): Promise<void> {
    try {
      await this.createOnce();
    } catch (error) {
      // a bug or a bad setting (no server URL) must not reach the host as an unhandled rejection
      this.warn('refused', `cannot create the run: ${error instanceof Error ? error.message : String(error)}`);
      this.close('closed');
    }
  }

  private async createOnce(): Promise<void> {
    const config = this.options.config === undefined ? undefined : this.encodableConfig(this.options.config);
    const body: IngestCreateInput = {
      goal: this.options.goal,
      ...(this.options.task !== undefined && { task: this.options.task }),
      ...(config !== undefined && { config }),
      ...(this.options.model !== undefined && { model: this.options.model }),
      ...(this.options.agent !== undefined && { agent: this.options.agent }),
      commands: [...this.declared],
      ...(this.options.breakpoints?.length && { breakpoints: [...this.options.breakpoints] }),
    };
    for (let attempt = 1; this.phase === 'creating'; attempt++) {
      const outcome = await this.send<IngestCreated>('POST', '/api/ingest/runs', body);
      if (this.phase !== 'creating') return;
      if (outcome.kind === 'ok') {
        this.runId = outcome.body.runId;
        this.pageUrl = `${baseUrl(this.settings.transport.server)}${outcome.body.url}`;
        this.nextSeq = outcome.body.nextSeq ?? 1;
        this.phase = 'open';
        this.warned.delete('unreachable');
        this.resolveReady({ runId: this.runId, url: this.pageUrl });
        const beat = outcome.body.heartbeatMs;
        if (beat > 0) this.heartbeat = every(beat, () => this.beat(beat));
        if (this.declared.length > 0) void this.poll();
        void this.pump();
        return;
      }
      if (outcome.kind === 'refused') {
        this.warn('refused', `the server refused to create the run: ${outcome.message}; nothing will be sent`);
        return this.close('closed');
      }
      this.counts.retried++;
      this.warn(
        'unreachable',
        `cannot reach ${baseUrl(this.settings.transport.server)} (${outcome.message}); retrying`,
      );
      await pause(retryDelay(attempt, this.settings.backoff, outcome.retryAfterMs));
    }
  }

  /** The run's config as JSON data; one JSON cannot carry is left out (the run matters more), with a warning. */
  private encodableConfig(config: Record<string, JsonValue>): Record<string, JsonValue> | undefined {
    const checked = toJson(config);
    if ('refused' in checked) {
      const { path, problem } = checked.refused;
      this.say('unsendable', `the run's config was left out: config.${path} ${problem}`);
      return undefined;
    }
    for (const { path, problem } of checked.notes) this.say('converted', `config.${path} ${problem}`);
    return checked.value as Record<string, JsonValue>;
  }

  private beat(intervalMs: number): void {
    if (this.phase !== 'open' || Date.now() - this.lastRequestAt < intervalMs * 0.8) return;
    void this.send('POST', `/api/ingest/runs/${this.runId}/heartbeat`, {});
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.phase === 'open') {
        if (!this.inFlight) {
          if (this.queue.length === 0) break;
          const items = this.queue.splice(0, this.batchSize);
          this.inFlight = items.map((item, i) => ({ ...item, seq: this.nextSeq + i }) as Numbered);
        }
        await this.sendInFlight();
      }
    } catch {
      // never into the host program
    } finally {
      this.pumping = false;
      if (this.queue.length === 0) this.warned.delete('overflow');
      this.notifyIdle();
    }
  }

  /** Sends the batch in flight until it is stored, dropped or the run closes. */
  private async sendInFlight(): Promise<void> {
    let attempt = 0;
    let conflicts = 0;
    while (this.phase === 'open' && this.inFlight) {
      const batch = this.inFlight;
      const outcome = await this.send<IngestAppended>('POST', `/api/ingest/runs/${this.runId}/events`, batch);
      if (this.phase !== 'open') return;
      if (outcome.kind === 'ok') {
        this.delivered(batch, outcome.body);
        return;
      }
      if (outcome.kind === 'retry' && this.exiting) {
        this.warn('unsent', `the program exited while the server did not answer (${outcome.message}): items unsent`);
        return this.close('unsent');
      }
      if (outcome.kind === 'retry') {
        attempt++;
        this.counts.retried++;
        this.warn(
          'unreachable',
          `cannot send to ${baseUrl(this.settings.transport.server)} (${outcome.message}); retrying with backoff, buffering meanwhile`,
        );
        await pause(retryDelay(attempt, this.settings.backoff, outcome.retryAfterMs));
        continue;
      }
      const error = (outcome.body ?? {}) as Partial<IngestError>;
      if (
        outcome.status === 409 &&
        error.error === 'closed' &&
        typeof error.expectedSeq === 'number' &&
        error.expectedSeq > batch[batch.length - 1]!.seq
      ) {
        // the server has all of this batch (it ended the run with it, or after it): it counts as delivered
        this.delivered(batch, { accepted: 0, duplicates: batch.length, nextSeq: error.expectedSeq, status: 'closed' });
        return;
      }
      if (outcome.status === 400) {
        this.dropInvalid(batch, error, outcome.message);
      } else if (outcome.status === 409 && error.error === 'gap' && typeof error.expectedSeq === 'number') {
        this.resendFrom(batch, error.expectedSeq);
      } else if (outcome.status === 409 && error.error === 'conflict' && typeof error.expectedSeq === 'number') {
        if (++conflicts > 3) {
          this.drop('invalid', batch.map(strip));
          this.inFlight = null;
        } else {
          this.warn('resequenced', `the server holds other items at these numbers (${outcome.message}); renumbering`);
          this.renumber(batch.map(strip), error.expectedSeq);
        }
      } else if (outcome.status === 413 && batch.length > 1) {
        // too large for the server: send it in halves, and smaller batches from now on
        const half = Math.ceil(batch.length / 2);
        this.queue.unshift(...batch.slice(half).map(strip));
        this.inFlight = batch.slice(0, half);
        this.batchSize = Math.max(1, Math.ceil(this.batchSize / 2));
      } else if (outcome.status === 409 || outcome.status === 404 || outcome.status === 401 || outcome.status === 403) {
        this.warn('closed', `the server no longer takes items for run ${this.runId}: ${outcome.message}`);
        this.close('closed');
      } else {
        this.itemWarnings.say('invalid', `a batch of ${batch.length} items was refused (${outcome.message}); dropped`);
        this.drop('invalid', batch.map(strip));
        this.inFlight = null;
      }
    }
  }

  private delivered(batch: Numbered[], answer: Partial<IngestAppended>): void {
    const last = batch[batch.length - 1]!.seq;
    this.counts.sent += (answer.accepted ?? 0) + (answer.duplicates ?? 0);
    this.counts.duplicates += answer.duplicates ?? 0;
    this.nextSeq = Math.max(last + 1, answer.nextSeq ?? 0);
    this.history = [...this.history, ...batch].slice(-2 * this.settings.batchSize);
    this.inFlight = null;
    this.warned.delete('unreachable');
    if (batch.some((item) => 'op' in item && item.op === 'finish')) this.finishStored = true;
  }

  /** A 400: drop the items it names (and those about their nodes) and send the rest again; nothing was stored. */
  private dropInvalid(batch: Numbered[], error: Partial<IngestError>, message: string): void {
    const reasons = new Map<number, string[]>();
    for (const issue of error.issues ?? []) {
      const index = issueIndex(issue.path);
      if (index === null || !batch[index]) continue;
      // "items[3].parent" -> "parent": the line already names the item
      const field = issue.path.replace(/^(?:items)?\[\d+\]\.?/, '') || '(the item)';
      reasons.set(index, [...(reasons.get(index) ?? []), `${field}: ${issue.message}`]);
    }
    const bad = reasons.size > 0 ? batch.filter((_, i) => reasons.has(i)) : batch;
    if (reasons.size === 0) {
      this.itemWarnings.say('invalid', `the server refused a batch of ${batch.length} items (${message}); dropped it`);
    }
    for (const [index, why] of reasons) {
      const item = batch[index]!;
      this.itemWarnings.say(
        'invalid',
        `the server refused ${describeItem(strip(item))} (seq ${item.seq}): ${why.join('; ')}; dropped it and later items about its node`,
      );
    }
    this.drop('invalid', bad.map(strip));
    const rest: UnsequencedItem[] = [];
    for (const item of batch) {
      if (bad.includes(item)) continue;
      const plain = strip(item);
      if (referencedNodes(plain).some((id) => this.droppedNodes.has(id))) this.drop('dependent', [plain]);
      else rest.push(plain);
    }
    this.renumber(rest, batch[0]!.seq);
  }

  /** A 409 gap: the server expects `expected`. Resend from there (kept items) or renumber from it. */
  private resendFrom(batch: Numbered[], expected: number): void {
    const first = batch[0]!.seq;
    if (expected > first) {
      // the server has the start of this batch already: send only what it lacks
      const rest = batch.filter((item) => item.seq >= expected);
      this.inFlight = rest.length > 0 ? rest : null;
      this.nextSeq = rest.length > 0 ? this.nextSeq : expected;
      return;
    }
    const kept = this.history.filter((item) => item.seq >= expected && item.seq < first);
    if (kept.length === first - expected) {
      this.inFlight = [...kept, ...batch];
      return;
    }
    this.warn('resequenced', `the server lost items ${expected}..${first - 1}; renumbering from ${expected}`);
    this.counts.droppedBy.lost += first - expected;
    this.renumber(batch.map(strip), expected);
  }

  private renumber(items: UnsequencedItem[], from: number): void {
    this.nextSeq = from;
    this.inFlight = items.length > 0 ? items.map((item, i) => ({ ...item, seq: from + i }) as Numbered) : null;
  }

  // --- commands -----------------------------------------------------------------------------------------------

  private async poll(): Promise<void> {
    try {
      await this.pollCommands();
    } catch {
      // steering stops; the search goes on
    }
  }

  private async pollCommands(): Promise<void> {
    let attempt = 0;
    while (this.phase === 'open' && !this.pollAbort.signal.aborted) {
      const path = `/api/ingest/runs/${this.runId}/commands?after=${this.lastCommandSeq}&waitMs=${this.settings.pollWaitMs}`;
      const outcome = await this.send<IngestCommands>(
        'GET',
        path,
        undefined,
        this.settings.pollWaitMs + this.settings.requestTimeoutMs,
        this.pollAbort.signal,
      );
      if (this.phase !== 'open' || this.pollAbort.signal.aborted) return;
      if (outcome.kind === 'ok') {
        attempt = 0;
        for (const command of [...(outcome.body.commands ?? [])].sort((a, b) => a.seq - b.seq)) {
          if (command.seq <= this.lastCommandSeq) continue;
          this.lastCommandSeq = command.seq;
          await this.handle(command);
        }
        if (outcome.body.status === 'finished' || outcome.body.status === 'failed') return;
        await pause(0); // through a timer, so a host with nothing else to do can reach beforeExit
      } else if (outcome.kind === 'retry') {
        await pause(retryDelay(++attempt, this.settings.backoff, outcome.retryAfterMs));
      } else {
        this.warn('refused', `the server refused the commands request: ${outcome.message}; steering stops`);
        return;
      }
    }
  }

  private async handle(command: IngestCommand): Promise<void> {
    this.counts.commands++;
    let outcome: 'applied' | 'refused' = 'applied';
    let reason: string | null = null;
    try {
      if (!this.declared.includes(command.kind)) throw new CommandRefused(`this program does not take ${command.kind}`);
      const result = this.options.onCommand
        ? await this.options.onCommand(command, this)
        : this.steering.apply(command);
      if (result && typeof result === 'object' && 'refused' in result) {
        outcome = 'refused';
        reason = String(result.refused);
      }
    } catch (error) {
      outcome = 'refused';
      reason = error instanceof Error ? error.message : String(error);
    }
    this.enqueue({ op: 'ack', command: command.seq, outcome, reason, ts: Date.now() });
  }
}
