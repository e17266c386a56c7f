/**
 * Traces in: every OpenTelemetry trace that reaches the OTLP receiver is an external run, made and written through
 * the ingest service (the same checks, fold, breakpoints and log room as a client's batches). Per trace one queue:
 * its spans are assembled into a search tree as they come (lib/formats/otlp TraceTree), the operations that makes
 * appended under the receiver's own client numbering, and the run ended (a finish) once its root span has come and
 * nothing more arrives for `idleMs`. Spans that wait for a parent are let go on a timer (`tick`).
 * Not responsible for HTTP, bodies or who may send (http/otlp.ts), decoding (lib/formats/otlp) or what a span means
 * (the mapping, trace-tree.ts).
 */
import type { IngestCreated, IngestAppended } from '../../contract/ingest';
import { MAX_GOAL_CHARS } from '../../contract/run';
import { TRACE_ID_KEY } from '../../contract/traces';
import { type DraftOp, type OtlpSpan, type RefusedSpan, ROOT_NODE, TraceTree } from '../../formats/index';
import { KeyedQueue } from '../ingest/queue';
import { isIngestRefusal } from '../ingest/refusal';
import type { IngestCreator, TraceRunState } from '../ingest/service';

/** What the receiver needs of the ingest service (IngestRuns). */
export type { TraceRunState };

export interface TraceRunWriter {
  create(body: unknown, creator: IngestCreator, options: { traceId: string }): Promise<IngestCreated>;
  append(runId: string, items: readonly unknown[]): Promise<IngestAppended>;
  /** The run a trace already has (made before this process started, or before its state was let go). */
  traceRun(traceId: string): Promise<TraceRunState | null>;
}

export interface TraceReceiverOptions {
  writer: TraceRunWriter;
  /** A run ends this long after its root span came, when nothing more has. */
  idleMs: number;
  /** How long a span waits for its parent. */
  waitMs: number;
  /** Spans of one trace waiting at once. */
  maxWaitingPerTrace: number;
  /** Spans waiting or being written across traces past which a request is refused (429) until they drain. */
  maxPending: number;
  /** A trace whose root never comes is let go after this much silence (its run is the ingest sweeper's then). */
  abandonMs: number;
  price: (modelId: string, usage: { inputTokens: number; outputTokens: number }) => number | null;
  log: (message: string) => void;
}

interface LiveTrace {
  tree: TraceTree;
  /** Null until the run is made: once the goal is known, or the first span has waited `waitMs`. */
  runId: string | null;
  /** Operations assembled before the run was made, written first once it is. */
  held: DraftOp[];
  firstArrival: number;
  creator: IngestCreator;
  ownerId: string | null;
  nextSeq: number;
  lastArrival: number;
  ended: boolean;
}

export interface ReceiveResult {
  rejectedSpans: number;
  /** Why, in words (the first reasons), or '' when every span was taken. */
  message: string;
}

/** The load a receiver sheds: past it a request is answered 429 with Retry-After. */
export class TraceBackpressure extends Error {
  override name = 'TraceBackpressure';
  constructor(readonly retryAfterSeconds: number) {
    super('the trace receiver is busy: retry later');
  }
}

const MAX_REASONS = 5;
/** Operations a single append carries: a fifth of the ingest API's MAX_BATCH_ITEMS (a 512-span export is ~2,000). */
const WRITE_BATCH = 1_000;

export class TraceReceiver {
  private readonly queue = new KeyedQueue();
  private readonly traces = new Map<string, LiveTrace>();
  private pending = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: TraceReceiverOptions) {}

  /** Spans of one request, across traces: each trace's in its queue. Refusals are counted, never thrown. */
  async receive(spans: readonly OtlpSpan[], creator: IngestCreator): Promise<ReceiveResult> {
    if (this.pending + spans.length > this.options.maxPending) throw new TraceBackpressure(2);
    const byTrace = new Map<string, OtlpSpan[]>();
    for (const span of spans) {
      const list = byTrace.get(span.traceId);
      if (list) list.push(span);
      else byTrace.set(span.traceId, [span]);
    }
    this.pending += spans.length;
    try {
      const results = await Promise.all(
        [...byTrace].map(([traceId, list]) => this.queue.run(traceId, () => this.receiveTrace(traceId, list, creator))),
      );
      const refused = results.flat();
      return {
        rejectedSpans: refused.length,
        message: refused
          .slice(0, MAX_REASONS)
          .map((r) => `${r.path}: ${r.reason}`)
          .concat(refused.length > MAX_REASONS ? [`and ${refused.length - MAX_REASONS} more`] : [])
          .join('; '),
      };
    } finally {
      this.pending -= spans.length;
    }
  }

  /** Lets go of spans that waited long enough and ends the runs of traces gone quiet. */
  async tick(now = Date.now()): Promise<void> {
    await Promise.all(
      [...this.traces.keys()].map((traceId) =>
        this.queue.run(traceId, async () => {
          const trace = this.traces.get(traceId);
          if (!trace) return;
          if (trace.runId === null) {
            // the goal never came with the first spans: the run is made without it rather than kept from the page
            if (now - trace.firstArrival < this.options.waitMs) return;
            await this.open(trace);
          }
          const quiet = now - trace.lastArrival;
          if (trace.tree.rootArrived && quiet >= this.options.idleMs) {
            await this.write(trace, [...trace.tree.release(now, true), trace.tree.finish()]);
            trace.ended = true;
            this.traces.delete(traceId);
          } else if (!trace.tree.rootArrived && quiet >= this.options.abandonMs) {
            await this.write(trace, trace.tree.release(now, true));
            this.traces.delete(traceId);
          } else {
            const ops = trace.tree.release(now);
            if (ops.length) await this.write(trace, ops);
          }
        }),
      ),
    );
  }

  start(intervalMs = Math.max(50, Math.min(500, Math.floor(this.options.waitMs / 2)))): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      void this.tick().catch((error: unknown) => this.options.log(`otel: tick failed: ${(error as Error).message}`));
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * Graceful shutdown: every span still waiting for its parent hangs off the root now and is written, so a restart
   * loses none (after a kill -9, spans that were waiting are lost; the stored ones stay). Runs are not ended.
   */
  async flush(): Promise<void> {
    this.stop();
    await Promise.all(
      [...this.traces.keys()].map((traceId) =>
        this.queue.run(traceId, async () => {
          const trace = this.traces.get(traceId);
          if (!trace) return;
          if (trace.runId === null) await this.open(trace);
          await this.write(trace, trace.tree.release(Date.now(), true));
        }),
      ),
    );
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Traces being assembled now (for tests and the bench). */
  get liveTraces(): number {
    return this.traces.size;
  }

  private async receiveTrace(traceId: string, spans: OtlpSpan[], creator: IngestCreator): Promise<RefusedSpan[]> {
    const now = Date.now();
    const trace = this.traces.get(traceId) ?? (await this.resume(traceId));
    if (trace === 'ended')
      return spans.map((s) => refusedSpan(s, `trace ${traceId}'s run has ended: it takes no more spans`));
    if (trace !== null && trace.ownerId !== creator.ownerId) {
      return spans.map((s) => refusedSpan(s, `trace ${traceId} is a run another person sent`));
    }
    const live = trace ?? this.begin(traceId, creator);
    live.lastArrival = now;
    const { ops, refused } = live.tree.add(spans, now);
    if (live.runId === null) {
      live.held.push(...ops);
      if (live.tree.goal !== null || live.tree.rootArrived) await this.open(live);
    } else if (ops.length) await this.write(live, ops);
    return refused;
  }

  private begin(traceId: string, creator: IngestCreator): LiveTrace {
    const trace: LiveTrace = {
      tree: new TraceTree(traceId, {
        waitMs: this.options.waitMs,
        maxWaiting: this.options.maxWaitingPerTrace,
        price: this.options.price,
      }),
      runId: null,
      held: [],
      firstArrival: Date.now(),
      creator,
      ownerId: creator.ownerId,
      nextSeq: 1,
      lastArrival: Date.now(),
      ended: false,
    };
    this.traces.set(traceId, trace);
    return trace;
  }

  /** A trace this process does not hold: its stored run continued, or null for a new trace. */
  private async resume(traceId: string): Promise<LiveTrace | 'ended' | null> {
    const stored = await this.options.writer.traceRun(traceId);
    if (stored === null) return null;
    if (stored.status === 'finished' || stored.status === 'failed') return 'ended';
    const tree = new TraceTree(traceId, {
      waitMs: this.options.waitMs,
      maxWaiting: this.options.maxWaitingPerTrace,
      price: this.options.price,
    });
    tree.adopt(stored.nodeIds);
    const trace: LiveTrace = {
      tree,
      runId: stored.runId,
      held: [],
      firstArrival: Date.now(),
      creator: { ownerId: stored.ownerId, actor: 'otel' },
      ownerId: stored.ownerId,
      nextSeq: stored.nextSeq,
      lastArrival: Date.now(),
      ended: false,
    };
    this.traces.set(traceId, trace);
    return trace;
  }

  /** The trace's run: made with what its spans say so far (service.name, the goal, the model), then what was held. */
  private async open(trace: LiveTrace): Promise<void> {
    const { tree } = trace;
    const goal = tree.goal?.trim() || tree.firstInput?.trim() || `trace ${tree.traceId}`;
    const created = await this.options.writer.create(
      {
        goal: goal.slice(0, MAX_GOAL_CHARS),
        task: tree.task ?? 'traced',
        agent: tree.agent ?? 'otel',
        model: tree.model ?? 'unknown',
        config: { [TRACE_ID_KEY]: tree.traceId },
        commands: [],
      },
      trace.creator,
      { traceId: tree.traceId },
    );
    trace.runId = created.runId;
    const held = trace.held.splice(0);
    await this.write(trace, [{ op: 'node', id: ROOT_NODE, parent: null }, ...held]);
  }

  /**
   * Appends operations under the receiver's numbering, in batches of at most WRITE_BATCH (under the ingest API's
   * MAX_BATCH_ITEMS, and short enough that other requests get the event loop between them). Should the ingest service
   * refuse a batch (an operation the mapping let through that the run cannot take), it is halved until the one bad
   * operation is found and dropped: one bad span costs only itself, in a few extra appends.
   */
  private async write(trace: LiveTrace, ops: readonly DraftOp[]): Promise<void> {
    for (let start = 0; start < ops.length; start += WRITE_BATCH) {
      await this.writeBatch(trace, ops.slice(start, start + WRITE_BATCH));
    }
  }

  private async writeBatch(trace: LiveTrace, ops: readonly DraftOp[]): Promise<void> {
    if (trace.runId === null || ops.length === 0) return;
    const items = ops.map((op, i) => ({ ...op, seq: trace.nextSeq + i }));
    try {
      trace.nextSeq = (await this.options.writer.append(trace.runId, items)).nextSeq;
    } catch (error) {
      const refused = isIngestRefusal(error) && error.status === 400;
      if (!refused || ops.length === 1) {
        this.options.log(`otel: trace ${trace.tree.traceId}: ${(error as Error).message}`);
        if (refused) return;
        throw error;
      }
      const half = Math.ceil(ops.length / 2);
      await this.writeBatch(trace, ops.slice(0, half));
      await this.writeBatch(trace, ops.slice(half));
    }
  }
}

function refusedSpan(span: OtlpSpan, reason: string): RefusedSpan {
  return { path: `span ${span.spanId} (${span.name})`, reason };
}
