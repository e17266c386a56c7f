/**
 * One trace's spans as a search tree, assembled as they arrive: spans come in any order and in many batches (an
 * exporter sends a span when it ends, so children come before their parents), and each becomes, once the span it
 * hangs from is known, ingest operations (lib/contract/ingest.ts) for the run the trace is:
 * - the trace's root span is the run's root node (id `root`; its `arborist.node.id`, if any, names it too);
 * - a model-call span (vocabulary.ts isModelCall) is a `call` of its nearest node;
 * - an evaluator span gives its node a named score (and the composite, when it comes before the node is made);
 * - any other span is a node: its id is `arborist.node.id` (or `graph.node.id`), else the span's id, and spans
 *   naming one id are one node; its parent is `arborist.node.parent_id` (or `graph.node.parent_id`), else its
 *   nearest ancestor span's node.
 * A span whose parent (span or explicit node) has not come waits, at most `waitMs` and `maxWaiting` spans per trace,
 * then hangs off the root marked "parent never arrived" (cleared if the parent turns out to be the root span). A span
 * sent twice is placed once; spans whose explicit parents form a cycle are refused.
 * Pure: time is given. Not responsible for the run itself (lib/server/otel makes it and writes these operations) or
 * for decoding (the decoders).
 */
import { type IngestOpInput, MAX_NODE_REF } from '../../contract/ingest';
import { MAX_METADATA_VALUE_CHARS } from '../../contract/vocabulary';
import { FIELD_CAPS } from '../field-caps';
import type { OtlpSpan, RefusedSpan } from './spans';
import {
  ARBORIST,
  evaluationEvents,
  evaluatorScore,
  eventLines,
  explicitNodeId,
  explicitParentId,
  inputMessages,
  inputText,
  isModelCall,
  modelOf,
  outputText,
  text,
  tokensOf,
} from './vocabulary';

/** An operation without its seq (the writer numbers them). */
export type DraftOp = IngestOpInput extends infer T ? (T extends unknown ? Omit<T, 'seq'> : never) : never;

export interface TraceTreeOptions {
  /** How long a span waits for its parent before it hangs off the root. */
  waitMs: number;
  /** How many spans of one trace may wait at once; past it the oldest hangs off the root at once. */
  maxWaiting: number;
  /** A call's dollars (null: unpriced). */
  price: (modelId: string, usage: { inputTokens: number; outputTokens: number }) => number | null;
}

/** The run's root node's id. */
export const ROOT_NODE = 'root';
/** Where a node that hangs off the root says why. */
export const PARENT_NOTE = 'otel.parent';

/** The caps the ingest API holds (lib/formats/field-caps.ts): longer text is cut here so a batch is never refused. */
const MAX_THOUGHT = FIELD_CAPS.thought;
const MAX_TEXT = FIELD_CAPS.response;
const MAX_PROMPT = FIELD_CAPS.prompt;
const MAX_ID = MAX_NODE_REF;
const MAX_ATTRIBUTES = 50;
const MAX_ATTRIBUTE_CHARS = 2_000;
/** Room for the note of what was left out, under the contract's cap on one metadata value. */
const VALUE_BUDGET = MAX_METADATA_VALUE_CHARS - 100;
/** The attribute that says how many others a node's metadata left out. */
const LEFT_OUT = 'otel.left_out';

/** The attributes the mapping consumes (not repeated in a node's metadata). */
const CONSUMED = new Set<string>([...Object.values(ARBORIST), 'graph.node.id', 'graph.node.parent_id']);

function cut(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 20)}… [cut at ${max} chars]`;
}

interface Waiting {
  span: OtlpSpan;
  /** What it waits for: `span:<id>` or `node:<id>`. */
  key: string;
  since: number;
}

type Role = { kind: 'node' | 'call' | 'evaluator'; nodeId: string };

export class TraceTree {
  private readonly roles = new Map<string, Role>();
  private readonly nodes = new Set<string>([ROOT_NODE]);
  /** Nodes whose work is over (completed, failed or pruned): a later span of the same node adds, never ends again. */
  private readonly ended = new Map<string, 'completed' | 'failed' | 'pruned'>();
  /** Explicit node ids that name the root. */
  private readonly aliases = new Map<string, string>([[ROOT_NODE, ROOT_NODE]]);
  /** Spans waiting, oldest first (by span id), and the same by what they wait for. */
  private readonly waiters = new Map<string, Waiting>();
  private readonly waitingOn = new Map<string, Set<string>>();
  /** Which explicit parent a waiting node waits for (node id -> parent id): a cycle is a loop in it. */
  private readonly explicitWaits = new Map<string, string>();
  /** Spans whose parent has come, to be placed by `drain`, in order. */
  private released: Waiting[] = [];
  private releasedAt = 0;
  /** Nodes hung off the root, by what they waited for. */
  private readonly hung = new Map<string, string[]>();
  private readonly seen = new Set<string>();
  private rootSpan: OtlpSpan | null = null;
  private goalText: string | null = null;
  private lastAnswer: string | null = null;
  private firstModel: string | null = null;
  private agentName: string | null = null;
  private firstInputText: string | null = null;
  private taskName: string | null = null;

  constructor(
    readonly traceId: string,
    private readonly options: TraceTreeOptions,
  ) {}

  /** The goal as far as the spans say: arborist.goal on any span, else the root span's input. */
  get goal(): string | null {
    return this.goalText ?? (this.rootSpan ? inputText(this.rootSpan) : null);
  }

  /** The first span's input (input.value, or its first user message): a goal when no span names one. */
  get firstInput(): string | null {
    return this.firstInputText;
  }

  get rootArrived(): boolean {
    return this.rootSpan !== null;
  }

  /** The first model a call named (the run's model label). */
  get model(): string | null {
    return this.firstModel;
  }

  /** The program: the first span's resource `service.name`. */
  get agent(): string | null {
    return this.agentName;
  }

  /** The task's label: `arborist.task` on any span. */
  get task(): string | null {
    return this.taskName;
  }

  /**
   * Nodes a stored run already has (a trace continued after a restart): their ids are known again, and a node made
   * by nesting is its span's id, so a late child still finds it.
   */
  adopt(nodeIds: readonly string[]): void {
    for (const id of nodeIds) {
      this.nodes.add(id);
      this.ended.set(id, 'completed');
      if (/^[0-9a-f]{16}$/.test(id)) this.roles.set(id, { kind: 'node', nodeId: id });
    }
  }

  get waitingSpans(): number {
    return this.waiters.size;
  }

  /** The operations these spans make now, and the spans refused (with why). */
  add(spans: readonly OtlpSpan[], now: number): { ops: DraftOp[]; refused: RefusedSpan[] } {
    const ops: DraftOp[] = [];
    const refused: RefusedSpan[] = [];
    for (const span of spans) {
      if (this.seen.has(span.spanId)) continue; // sent twice: stored once
      const problem = this.problem(span);
      if (problem) {
        refused.push({ path: `span ${span.spanId} (${span.name})`, reason: problem });
        continue;
      }
      this.seen.add(span.spanId);
      this.goalText ??= text(span.attributes, ARBORIST.goal);
      this.taskName ??= text(span.attributes, ARBORIST.task);
      this.agentName ??= text(span.resource, 'service.name');
      if (isModelCall(span)) this.firstModel ??= modelOf(span);
      else this.firstInputText ??= inputText(span);
      if (span.parentSpanId === null) {
        this.placeRoot(span, ops);
        this.drain(ops);
        continue;
      }
      const blocker = this.blocker(span);
      if (blocker === null) {
        this.place(span, ops, null);
        this.drain(ops);
      } else {
        const cycle = this.cycleThrough(span, blocker);
        if (cycle) {
          refused.push(...this.refuseCycle(span, cycle));
          continue;
        }
        this.wait(blocker, span, now, ops);
      }
    }
    return { ops, refused };
  }

  /** Spans that waited `waitMs` or more hang off the root now (all of them with `all`, when the run ends). */
  release(now: number, all = false): DraftOp[] {
    const ops: DraftOp[] = [];
    for (const w of [...this.waiters.values()]) {
      if (!all && now - w.since < this.options.waitMs) continue;
      if (!this.waiters.has(w.span.spanId)) continue; // placed meanwhile, by an earlier one's release
      this.unwait(w);
      this.hang(w, ops);
      this.drain(ops);
    }
    return ops;
  }

  /** The run's end: what the root span said (output, success, best node), as the finish operation. */
  finish(): DraftOp {
    const root = this.rootSpan;
    const a = root?.attributes ?? {};
    const named = text(a, ARBORIST.best);
    const best = named !== null && this.nodes.has(this.resolve(named)) ? this.resolve(named) : this.lastAnswer;
    const output = cut((root && (text(a, ARBORIST.output) ?? outputText(root))) ?? '', MAX_TEXT);
    const failed = root?.status.code === 'error';
    const said = a[ARBORIST.success];
    const success = typeof said === 'boolean' ? said : !failed && root !== null && (best !== null || output !== '');
    return {
      op: 'finish',
      output,
      best: best === ROOT_NODE ? null : best,
      success,
      reason: success ? 'terminated' : failed ? 'error' : 'frontier-empty',
      detail: failed ? root?.status.message || 'the root span ended with status ERROR' : null,
    };
  }

  /** Why a span cannot be placed at all, or null. */
  private problem(span: OtlpSpan): string | null {
    const id = explicitNodeId(span);
    const parent = explicitParentId(span);
    if (id !== null && id.length > MAX_ID) return `arborist.node.id is ${id.length} characters, over ${MAX_ID}`;
    if (parent !== null && parent.length > MAX_ID)
      return `arborist.node.parent_id is ${parent.length} characters, over ${MAX_ID}`;
    if (id !== null && parent !== null && id === parent) return `node "${id}" names itself as its parent`;
    const score = span.attributes[ARBORIST.score];
    if (score !== undefined && (typeof score !== 'number' || !(score >= 0 && score <= 1)))
      return `arborist.score must be a number from 0 to 1, got ${JSON.stringify(score)}`;
    const status = span.attributes[ARBORIST.status];
    if (status !== undefined && !['completed', 'failed', 'pruned'].includes(String(status)))
      return `arborist.status must be completed, failed or pruned, got ${JSON.stringify(status)}`;
    return null;
  }

  private resolve(nodeId: string): string {
    return this.aliases.get(nodeId) ?? nodeId;
  }

  /** What a span waits for before it can be placed (null: nothing). */
  private blocker(span: OtlpSpan): string | null {
    const explicit = explicitParentId(span);
    const own = explicitNodeId(span);
    // a node already made needs no parent again; a new node with an explicit parent needs that node
    if (own !== null && this.nodes.has(this.resolve(own)) && !isModelCall(span)) return null;
    if (explicit !== null && !isModelCall(span) && evaluatorScore(span) === null) {
      return this.nodes.has(this.resolve(explicit)) ? null : `node:${explicit}`;
    }
    return this.roles.has(span.parentSpanId!) ? null : `span:${span.parentSpanId}`;
  }

  private wait(key: string, span: OtlpSpan, since: number, ops: DraftOp[]): void {
    const w: Waiting = { span, key, since };
    this.waiters.set(span.spanId, w);
    const set = this.waitingOn.get(key) ?? new Set<string>();
    set.add(span.spanId);
    this.waitingOn.set(key, set);
    const own = explicitNodeId(span);
    if (own !== null && key.startsWith('node:')) this.explicitWaits.set(own, key.slice('node:'.length));
    if (this.waiters.size > this.options.maxWaiting) {
      // the oldest waiter gives up first: memory stays bounded whatever a trace sends
      const oldest = this.waiters.values().next().value!;
      this.unwait(oldest);
      this.hang(oldest, ops);
      this.drain(ops);
    }
  }

  private unwait(w: Waiting): void {
    this.waiters.delete(w.span.spanId);
    const set = this.waitingOn.get(w.key);
    set?.delete(w.span.spanId);
    if (set?.size === 0) this.waitingOn.delete(w.key);
    const own = explicitNodeId(w.span);
    if (own !== null && this.explicitWaits.get(own) === w.key.slice('node:'.length)) this.explicitWaits.delete(own);
  }

  /** The explicit-parent chain from `blocker` back to this span's own node, if the waiting spans make one. */
  private cycleThrough(span: OtlpSpan, blocker: string): string[] | null {
    const own = explicitNodeId(span);
    if (own === null || !blocker.startsWith('node:')) return null;
    const chain = [own];
    let at: string | undefined = blocker.slice('node:'.length);
    while (at !== undefined && chain.length <= this.explicitWaits.size + 1) {
      chain.push(at);
      if (at === own) return chain;
      at = this.explicitWaits.get(at);
    }
    return null;
  }

  private refuseCycle(span: OtlpSpan, chain: string[]): RefusedSpan[] {
    const reason = `a cycle in arborist.node.parent_id: ${chain.join(' -> ')}`;
    const members = new Set(chain);
    const refused: RefusedSpan[] = [{ path: `span ${span.spanId} (${span.name})`, reason }];
    for (const w of [...this.waiters.values()]) {
      const id = explicitNodeId(w.span);
      if (id === null || !members.has(id) || !w.key.startsWith('node:')) continue;
      this.unwait(w);
      refused.push({ path: `span ${w.span.spanId} (${w.span.name})`, reason });
    }
    return refused;
  }

  /** A waiter whose parent never came: placed under the root, marked. */
  private hang(w: Waiting, ops: DraftOp[]): void {
    const nodeId = this.place(w.span, ops, ROOT_NODE);
    if (nodeId === null) return;
    const [kind, id] = [w.key.slice(0, w.key.indexOf(':')), w.key.slice(w.key.indexOf(':') + 1)];
    const what = kind === 'span' ? `span ${id}` : `node "${id}"`;
    ops.push({
      op: 'annotate',
      node: nodeId,
      metadata: { [PARENT_NOTE]: `parent never arrived (${what}); shown under the root` },
    });
    const hung = this.hung.get(w.key);
    if (hung) hung.push(nodeId);
    else this.hung.set(w.key, [nodeId]);
  }

  /** Nodes hung off the root while they waited for `key`, which has come: right where they are, or not. */
  private arrived(key: string, isRoot: boolean, name: string, ops: DraftOp[]): void {
    const nodes = this.hung.get(key);
    if (!nodes) return;
    this.hung.delete(key);
    const note = isRoot ? null : `its parent (${name}) arrived after it had waited; shown under the root`;
    for (const nodeId of nodes) ops.push({ op: 'annotate', node: nodeId, metadata: { [PARENT_NOTE]: note } });
  }

  private placeRoot(span: OtlpSpan, ops: DraftOp[]): void {
    this.rootSpan = span;
    this.roles.set(span.spanId, { kind: 'node', nodeId: ROOT_NODE });
    const own = explicitNodeId(span);
    if (own !== null) this.aliases.set(own, ROOT_NODE);
    ops.push({
      op: 'annotate',
      node: ROOT_NODE,
      metadata: {
        'otel.span': span.name,
        ...(inputText(span) !== null && { input: cut(inputText(span)!, MAX_TEXT) }),
        ...this.metadataOf(span),
      },
    });
    // nodes hung off the root while they waited for this span were in the right place after all
    // the nodes that name the root as their parent first: a later span of one of them (an "evaluate" step that
    // names it) then adds to it rather than making it
    if (own !== null) {
      this.arrived(`node:${own}`, true, span.name, ops);
      this.releaseFor(`node:${own}`, ops);
    }
    this.arrived(`span:${span.spanId}`, true, span.name, ops);
    this.releaseFor(`span:${span.spanId}`, ops);
  }

  /**
   * Places a span whose parent is known (or `forcedParent` for one that gave up waiting); returns the node it
   * belongs to. A node's own waiting children are placed between its start and its end, so the log reads as the
   * search ran: the node, its calls and children, then its result.
   */
  private place(span: OtlpSpan, ops: DraftOp[], forcedParent: string | null): string | null {
    const parentNode = forcedParent ?? this.parentNodeOf(span);
    if (isModelCall(span)) {
      this.roles.set(span.spanId, { kind: 'call', nodeId: parentNode });
      ops.push(this.callOp(span, parentNode));
      this.releaseFor(`span:${span.spanId}`, ops);
      return null;
    }
    const evaluation = evaluatorScore(span);
    const explicitOwn = explicitNodeId(span);
    if (evaluation !== null && explicitOwn === null) {
      this.roles.set(span.spanId, { kind: 'evaluator', nodeId: parentNode });
      ops.push({ op: 'annotate', node: parentNode, scores: { [evaluation.name]: evaluation.value } });
      this.releaseFor(`span:${span.spanId}`, ops);
      return null;
    }
    const nodeId = explicitOwn !== null ? this.resolve(explicitOwn) : span.spanId;
    this.roles.set(span.spanId, { kind: 'node', nodeId });
    const isNew = !this.nodes.has(nodeId);
    if (isNew) {
      this.nodes.add(nodeId);
      const composite = this.compositeOf(span);
      ops.push({
        op: 'node',
        id: nodeId,
        parent: parentNode,
        thought: cut(text(span.attributes, ARBORIST.thought) ?? span.name, MAX_THOUGHT),
        ...(composite !== null && { score: composite }),
        metadata: { 'otel.span': span.name, ...this.metadataOf(span) },
        ts: Math.round(span.startMs),
      });
      ops.push({ op: 'start', node: nodeId, ts: Math.round(span.startMs) });
    } else {
      // a later span of the node (an "evaluate" step) adds what it carries, if anything
      const metadata = this.metadataOf(span);
      if (Object.keys(metadata).length > 0) ops.push({ op: 'annotate', node: nodeId, metadata });
    }
    this.arrived(`span:${span.spanId}`, false, span.name, ops);
    if (isNew) this.arrived(`node:${nodeId}`, false, `node "${nodeId}"`, ops);
    const scores = Object.fromEntries(evaluationEvents(span).map((e) => [e.name, e.value]));
    if (evaluation !== null) scores[evaluation.name] = evaluation.value;
    if (Object.keys(scores).length > 0) ops.push({ op: 'annotate', node: nodeId, scores });
    this.releaseFor(`span:${span.spanId}`, ops);
    if (isNew) {
      this.releaseFor(`node:${nodeId}`, ops);
      if (explicitOwn !== null && explicitOwn !== nodeId) this.releaseFor(`node:${explicitOwn}`, ops);
    }
    // the root's end is the run's (its finish), not a span's that names it
    if (nodeId !== ROOT_NODE) this.settle(span, nodeId, ops);
    return nodeId;
  }

  /** The node a span hangs from: its nearest ancestor's node, or its explicit parent. */
  private parentNodeOf(span: OtlpSpan): string {
    const explicit = explicitParentId(span);
    if (explicit !== null && !isModelCall(span) && this.nodes.has(this.resolve(explicit)))
      return this.resolve(explicit);
    return this.roles.get(span.parentSpanId ?? '')?.nodeId ?? ROOT_NODE;
  }

  /** arborist.score, else a score its waiting evaluator children carry (0..1). */
  private compositeOf(span: OtlpSpan): number | null {
    const own = span.attributes[ARBORIST.score];
    if (typeof own === 'number') return own;
    for (const id of this.waitingOn.get(`span:${span.spanId}`) ?? []) {
      const value = evaluatorScore(this.waiters.get(id)!.span)?.value;
      if (value !== undefined && value >= 0 && value <= 1) return value;
    }
    return null;
  }

  /** The span's end: completed with its output, failed with its error, or pruned, unless the node already ended. */
  private settle(span: OtlpSpan, nodeId: string, ops: DraftOp[]): void {
    const backtrack = text(span.attributes, ARBORIST.backtrackTo);
    if (backtrack !== null && this.nodes.has(this.resolve(backtrack))) {
      ops.push({ op: 'backtrack', from: nodeId, to: this.resolve(backtrack), ts: Math.round(span.endMs) });
    }
    const ts = Math.round(span.endMs);
    const status = text(span.attributes, ARBORIST.status);
    const lines = eventLines(span);
    const was = this.ended.get(nodeId);
    // a later span of a node may prune or fail it (an "evaluate" step after its "expand"); nothing ends it twice
    if (was === 'pruned' || (was === 'failed' && status !== 'pruned') || (was === 'completed' && status === null))
      return;
    if (status === 'pruned') {
      ops.push({ op: 'prune', node: nodeId, reason: span.status.message || 'pruned by the search', ts });
      this.ended.set(nodeId, 'pruned');
    } else if (was === 'completed' && status === 'completed') {
      return;
    } else if (status === 'failed' || (status === null && span.status.code === 'error')) {
      const exception = lines.find((line) => line.startsWith('exception: '));
      const reason =
        span.status.message || exception?.slice('exception: '.length) || 'the span ended with status ERROR';
      ops.push({ op: 'fail', node: nodeId, reason: cut(reason, MAX_TEXT), ts });
      this.ended.set(nodeId, 'failed');
    } else {
      const response = cut(text(span.attributes, ARBORIST.output) ?? outputText(span) ?? '', MAX_TEXT);
      const answer = span.attributes[ARBORIST.answer] === true;
      if (answer) this.lastAnswer = nodeId;
      ops.push({ op: 'complete', node: nodeId, response, answer, ts });
      this.ended.set(nodeId, 'completed');
    }
  }

  /**
   * The spans that waited for `key`: a model call or an evaluator is placed at once (its node's result comes after
   * it), anything else joins the queue `drain` works through. A loop, not recursion: a chain of 100,000 nested spans
   * sent children first is released in one go without growing the stack.
   */
  private releaseFor(key: string, ops: DraftOp[]): void {
    const ids = this.waitingOn.get(key);
    if (!ids) return;
    const list = [...ids].map((id) => this.waiters.get(id)!);
    for (const w of list) this.unwait(w);
    for (const w of list) {
      const leaf = isModelCall(w.span) || (evaluatorScore(w.span) !== null && explicitNodeId(w.span) === null);
      if (leaf && this.blocker(w.span) === null) this.place(w.span, ops, null);
      else this.released.push(w);
    }
  }

  /** Places what was released, and what that releases in turn. */
  private drain(ops: DraftOp[]): void {
    while (this.releasedAt < this.released.length) {
      const w = this.released[this.releasedAt++]!;
      const blocker = this.blocker(w.span);
      if (blocker === null) this.place(w.span, ops, null);
      else this.wait(blocker, w.span, w.since, ops);
    }
    this.released = [];
    this.releasedAt = 0;
  }

  private callOp(span: OtlpSpan, nodeId: string): DraftOp {
    const usage = tokensOf(span);
    const model = modelOf(span);
    const purpose = text(span.attributes, ARBORIST.purpose);
    return {
      op: 'call',
      node: nodeId,
      purpose: purpose === 'generate' || purpose === 'evaluate' || purpose === 'synthesize' ? purpose : 'execute',
      ...(model !== null && { model: cut(model, MAX_ID) }),
      messages: inputMessages(span).map((m) => ({ role: m.role, content: cut(m.content, MAX_PROMPT) })),
      response: span.status.code === 'error' ? null : cut(outputText(span) ?? '', MAX_TEXT),
      error: span.status.code === 'error' ? cut(span.status.message || 'the call failed', MAX_TEXT) : null,
      ...usage,
      cost: model === null ? null : this.options.price(model, usage),
      latencyMs: Math.max(0, span.endMs - span.startMs),
      ts: Math.round(span.endMs),
    };
  }

  /**
   * What a node keeps of its span: its events' words and the attributes the mapping did not read, each value of the
   * two within the contract's cap on a metadata value (an entry past it is left out, and a last entry says how many
   * were), so the batch is never refused for them.
   */
  private metadataOf(span: OtlpSpan): Record<string, string | string[] | Record<string, string>> {
    const rest: Record<string, string> = {};
    let size = 2; // "{}"
    let leftOut = 0;
    for (const [key, value] of Object.entries(span.attributes)) {
      if (CONSUMED.has(key)) continue;
      const kept = cut(typeof value === 'string' ? value : JSON.stringify(value), MAX_ATTRIBUTE_CHARS);
      const entry = JSON.stringify(key).length + JSON.stringify(kept).length + 2; // ':' and ','
      if (Object.keys(rest).length >= MAX_ATTRIBUTES || size + entry > VALUE_BUDGET) leftOut++;
      else {
        rest[key] = kept;
        size += entry;
      }
    }
    if (leftOut > 0) rest[LEFT_OUT] = `${leftOut} more left out`;
    const lines: string[] = [];
    size = 2; // "[]"
    const all = eventLines(span);
    for (const line of all) {
      const kept = cut(line, MAX_ATTRIBUTE_CHARS);
      size += JSON.stringify(kept).length + 1;
      if (size > VALUE_BUDGET) break;
      lines.push(kept);
    }
    if (lines.length < all.length) lines.push(`${all.length - lines.length} more left out`);
    return {
      ...(Object.keys(rest).length > 0 && { 'otel.attributes': rest }),
      ...(lines.length > 0 && { 'otel.events': lines }),
    };
  }
}
