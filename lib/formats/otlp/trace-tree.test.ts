// The mapping from spans to a search tree: each vocabulary, spans out of order and in many batches, duplicates,
// parents that never come and cycles. Asserted on the tree the operations make (parent, thought, status, calls).
import { describe, expect, it } from 'vitest';
import { metadataCapProblem } from '../../contract/vocabulary';
import type { OtlpSpan } from './spans';
import { type DraftOp, PARENT_NOTE, ROOT_NODE, TraceTree } from './trace-tree';

const TRACE = 'a'.repeat(32);
let next = 0;
const sid = () => (++next).toString(16).padStart(16, '0');

function span(partial: Partial<OtlpSpan> & { spanId?: string }): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: partial.spanId ?? sid(),
    parentSpanId: null,
    name: 'step',
    kind: 'internal',
    startMs: 1_000,
    endMs: 2_000,
    attributes: {},
    events: [],
    status: { code: 'unset', message: '' },
    resource: { 'service.name': 'my-agent' },
    ...partial,
  };
}

interface Shape {
  parent: string | null;
  thought: string;
  status: string;
  score?: number;
  calls: {
    model?: string;
    inputTokens?: number;
    outputTokens?: number;
    messages?: unknown;
    response?: unknown;
    cost?: unknown;
  }[];
  scores: Record<string, number>;
  metadata: Record<string, unknown>;
}

/** The tree the operations make, as the fold would (enough of it to assert on). */
function shape(ops: readonly DraftOp[]): Record<string, Shape> {
  const nodes: Record<string, Shape> = {
    [ROOT_NODE]: { parent: null, thought: '', status: 'pending', calls: [], scores: {}, metadata: {} },
  };
  for (const op of ops) {
    switch (op.op) {
      case 'node':
        if (op.parent === null) break;
        expect(nodes[op.parent], `parent ${op.parent} of ${op.id} exists first`).toBeDefined();
        expect(nodes[op.id], `${op.id} made once`).toBeUndefined();
        nodes[op.id] = {
          parent: op.parent,
          thought: op.thought ?? '',
          status: 'pending',
          ...(op.score !== undefined && { score: op.score }),
          calls: [],
          scores: {},
          metadata: { ...op.metadata },
        };
        break;
      case 'start':
        nodes[op.node]!.status = 'running';
        break;
      case 'complete':
        nodes[op.node]!.status = 'completed';
        break;
      case 'fail':
        nodes[op.node]!.status = `failed: ${op.reason}`;
        break;
      case 'prune':
        nodes[op.node]!.status = 'pruned';
        break;
      case 'call':
        nodes[op.node ?? ROOT_NODE]!.calls.push(op);
        break;
      case 'annotate': {
        const node = nodes[op.node]!;
        Object.assign(node.scores, op.scores);
        for (const [k, v] of Object.entries(op.metadata ?? {})) {
          if (v === null) delete node.metadata[k];
          else node.metadata[k] = v;
        }
        break;
      }
      default:
        break;
    }
  }
  return nodes;
}

const options = { waitMs: 1_000, maxWaiting: 100, price: (model: string) => (model === 'gpt-4o' ? 0.01 : null) };

function assemble(batches: OtlpSpan[][], { gapMs = 0 } = {}) {
  const tree = new TraceTree(TRACE, options);
  const ops: DraftOp[] = [];
  let now = 0;
  for (const batch of batches) {
    ops.push(...tree.add(batch, now).ops);
    now += gapMs;
    ops.push(...tree.release(now));
  }
  return { tree, ops, nodes: shape(ops) };
}

describe('a trace as a search tree', () => {
  it('nests spans as nodes, children first in many batches, and takes each model call to its nearest node', () => {
    const root = span({ name: 'tot.search', attributes: { 'input.value': '4 9 10 13' } });
    const expand = span({
      parentSpanId: root.spanId,
      name: 'expand',
      attributes: { 'arborist.thought': '13 - 9 = 4' },
    });
    const llm = span({
      parentSpanId: expand.spanId,
      name: 'chat gpt-4o',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'propose' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: '4 4 10' }] }]),
      },
    });
    // the exporter's order: the call ends first, then its step, the root last
    const { nodes, tree } = assemble([[llm], [expand], [root]]);
    expect(tree.goal).toBe('4 9 10 13');
    expect(nodes[expand.spanId]).toMatchObject({ parent: ROOT_NODE, thought: '13 - 9 = 4', status: 'completed' });
    expect(nodes[expand.spanId]!.calls).toEqual([
      expect.objectContaining({
        model: 'gpt-4o',
        inputTokens: 120,
        outputTokens: 40,
        messages: [{ role: 'user', content: 'propose' }],
        response: '4 4 10',
        cost: 0.01,
      }),
    ]);
    expect(Object.keys(nodes)).toHaveLength(2); // the call is not a node
    expect(tree.model).toBe('gpt-4o');
    expect(tree.agent).toBe('my-agent');
  });

  it('reads OpenInference and OpenLLMetry calls and an evaluator score', () => {
    const root = span({ name: 'graph' });
    const step = span({ parentSpanId: root.spanId, name: 'think', attributes: { 'openinference.span.kind': 'CHAIN' } });
    const oi = span({
      parentSpanId: step.spanId,
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.model_name': 'gpt-4o-mini',
        'llm.token_count.prompt': 10,
        'llm.token_count.completion': 5,
        'llm.input_messages.0.message.role': 'system',
        'llm.input_messages.0.message.content': 'be brief',
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': 'hi',
        'llm.output_messages.0.message.content': 'hello',
      },
    });
    const ollm = span({
      parentSpanId: step.spanId,
      attributes: {
        'llm.request.type': 'chat',
        'gen_ai.request.model': 'llama-3',
        'gen_ai.usage.prompt_tokens': 7,
        'gen_ai.usage.completion_tokens': 3,
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': 'q',
        'gen_ai.completion.0.content': 'a',
      },
    });
    const judge = span({
      parentSpanId: step.spanId,
      name: 'judge',
      attributes: { 'openinference.span.kind': 'EVALUATOR', 'evaluation.score': 0.7, 'evaluation.name': 'value' },
    });
    const { nodes } = assemble([[oi, ollm, judge, step, root]]);
    const node = nodes[step.spanId]!;
    expect(node.calls.map((c) => [c.model, c.inputTokens, c.outputTokens, c.response])).toEqual([
      ['gpt-4o-mini', 10, 5, 'hello'],
      ['llama-3', 7, 3, 'a'],
    ]);
    expect(node.calls[0]!.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    expect(node.score).toBe(0.7); // the evaluator came before its node was made: the composite
    expect(node.scores).toEqual({ value: 0.7 });
    expect(Object.keys(nodes)).toEqual([ROOT_NODE, step.spanId]);
  });

  it('builds the search tree from explicit ids when the spans form a loop, merging the spans of one node', () => {
    const root = span({ name: 'langgraph', attributes: { 'arborist.node.id': 'n0', 'arborist.goal': 'solve' } });
    const loop = (name: string, attrs: Record<string, string | number>) =>
      span({ parentSpanId: root.spanId, name, attributes: attrs });
    const spans = [
      loop('expand', {
        'arborist.node.id': 'a',
        'arborist.node.parent_id': 'n0',
        'arborist.thought': 'A',
        'arborist.score': 0.4,
      }),
      loop('expand', { 'arborist.node.id': 'b', 'arborist.node.parent_id': 'n0', 'arborist.thought': 'B' }),
      loop('expand', { 'graph.node.id': 'b1', 'graph.node.parent_id': 'b', 'arborist.thought': 'B1' }),
      loop('evaluate', { 'arborist.node.id': 'b', 'arborist.status': 'pruned' }),
      loop('expand', {
        'arborist.node.id': 'a1',
        'arborist.node.parent_id': 'a',
        'arborist.thought': 'A1',
        'arborist.backtrack_to': 'n0',
      }),
    ];
    const { nodes, ops, tree } = assemble([spans, [root]]);
    expect(tree.goal).toBe('solve');
    expect(nodes.a).toMatchObject({ parent: ROOT_NODE, thought: 'A', score: 0.4 });
    expect(nodes.b).toMatchObject({ parent: ROOT_NODE, thought: 'B', status: 'pruned' }); // its later "evaluate" span pruned it
    expect(nodes.b1).toMatchObject({ parent: 'b', thought: 'B1' });
    expect(nodes.a1).toMatchObject({ parent: 'a' });
    expect(ops.filter((o) => o.op === 'node')).toHaveLength(4); // b's second span merged into it
    expect(ops).toContainEqual(expect.objectContaining({ op: 'backtrack', from: 'a1', to: ROOT_NODE }));
  });

  it('lets a span that names the root add to it, never end it (the run ends it)', () => {
    const root = span({ attributes: { 'arborist.node.id': 'n0' } });
    const step = span({ parentSpanId: root.spanId, attributes: { 'arborist.node.id': 'n0', 'custom.flag': 'on' } });
    const { ops } = assemble([[root], [step]]);
    expect(
      ops.filter((o) => 'node' in o && o.node === ROOT_NODE && ['complete', 'fail', 'prune'].includes(o.op)),
    ).toEqual([]);
    expect(shape(ops)[ROOT_NODE]!.metadata['otel.attributes']).toEqual({ 'custom.flag': 'on' });
  });

  it("keeps a span's attributes and events within the contract's caps on a node's metadata, saying what it left out", () => {
    // quotes double in JSON: 50 attributes of 2,000 of them would be ~200,000 characters in one metadata value
    const attributes = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`custom.a${i}`, '"'.repeat(3_000)]));
    const events = Array.from({ length: 200 }, (_, i) => ({
      name: `e${i}`,
      timeMs: i,
      attributes: { text: 'x'.repeat(3_000) },
    }));
    const root = span({});
    const step = span({ parentSpanId: root.spanId, attributes, events });
    const { ops } = assemble([[root, step]]);
    const node = ops.find((o) => o.op === 'node' && o.id === step.spanId) as Extract<DraftOp, { op: 'node' }>;
    const metadata = node.metadata ?? {};
    expect(metadataCapProblem(metadata)).toBeNull();
    expect((metadata['otel.attributes'] as Record<string, string>)['otel.left_out']).toMatch(/^\d+ more left out$/);
    expect((metadata['otel.events'] as string[]).at(-1)).toMatch(/^\d+ more left out$/);
  });

  it('stores a span sent twice once', () => {
    const root = span({});
    const child = span({ parentSpanId: root.spanId });
    const { ops } = assemble([[root, child], [child], [child, root]]);
    expect(ops.filter((o) => o.op === 'node')).toHaveLength(1);
  });

  it('hangs a span whose parent never comes off the root, marked, and clears the mark when it was the root', () => {
    const rootId = sid();
    const lost = span({ parentSpanId: 'f'.repeat(16), name: 'orphan' });
    const early = span({ parentSpanId: rootId, name: 'first level' });
    const tree = new TraceTree(TRACE, options);
    const ops = [...tree.add([lost, early], 0).ops];
    expect(ops).toEqual([]); // both wait
    ops.push(...tree.release(999));
    expect(ops).toEqual([]);
    ops.push(...tree.release(1_000));
    let nodes = shape(ops);
    expect(nodes[lost.spanId]!.metadata[PARENT_NOTE]).toMatch(/parent never arrived \(span f{16}\)/);
    expect(nodes[early.spanId]!.metadata[PARENT_NOTE]).toMatch(/parent never arrived/);
    // the root arrives last (as exporters send it): the first-level node was in the right place after all
    ops.push(...tree.add([span({ spanId: rootId })], 2_000).ops);
    nodes = shape(ops);
    expect(nodes[early.spanId]!.metadata[PARENT_NOTE]).toBeUndefined();
    expect(nodes[lost.spanId]!.metadata[PARENT_NOTE]).toMatch(/never arrived/);
  });

  it('refuses spans whose explicit parents form a cycle, and keeps the rest', () => {
    const root = span({});
    const a = span({
      parentSpanId: root.spanId,
      attributes: { 'arborist.node.id': 'x', 'arborist.node.parent_id': 'y' },
    });
    const b = span({
      parentSpanId: root.spanId,
      attributes: { 'arborist.node.id': 'y', 'arborist.node.parent_id': 'x' },
    });
    const self = span({
      parentSpanId: root.spanId,
      attributes: { 'arborist.node.id': 'z', 'arborist.node.parent_id': 'z' },
    });
    const fine = span({ parentSpanId: root.spanId, attributes: { 'arborist.node.id': 'w' } });
    const tree = new TraceTree(TRACE, options);
    const first = tree.add([root, a, b, self, fine], 0);
    expect(first.refused.map((r) => r.reason)).toEqual([
      'a cycle in arborist.node.parent_id: y -> x -> y',
      'a cycle in arborist.node.parent_id: y -> x -> y',
      'node "z" names itself as its parent',
    ]);
    expect(shape(first.ops).w).toBeDefined();
    expect(tree.waitingSpans).toBe(0);
  });

  it('refuses attribute values of the wrong type with the reason, and fails a node whose span ended in error', () => {
    const root = span({});
    const bad = span({ parentSpanId: root.spanId, attributes: { 'arborist.score': 5 } });
    const nan = span({ parentSpanId: root.spanId, attributes: { 'arborist.score': 'high' } });
    const broken = span({
      parentSpanId: root.spanId,
      status: { code: 'error', message: '' },
      events: [
        {
          name: 'exception',
          timeMs: 1,
          attributes: { 'exception.type': 'TypeError', 'exception.message': 'x is undefined' },
        },
      ],
    });
    const tree = new TraceTree(TRACE, options);
    const { ops, refused } = tree.add([root, bad, nan, broken], 0);
    expect(refused.map((r) => r.reason)).toEqual([
      'arborist.score must be a number from 0 to 1, got 5',
      'arborist.score must be a number from 0 to 1, got "high"',
    ]);
    const node = shape(ops)[broken.spanId]!;
    expect(node.status).toBe('failed: TypeError: x is undefined');
    expect(node.metadata['otel.events']).toEqual(['exception: TypeError: x is undefined']);
  });

  it('bounds the spans waiting per trace: past the cap the oldest hangs off the root at once', () => {
    const tree = new TraceTree(TRACE, { ...options, maxWaiting: 3 });
    const spans = Array.from({ length: 5 }, () => span({ parentSpanId: 'e'.repeat(16) }));
    const { ops } = tree.add(spans, 0);
    expect(tree.waitingSpans).toBe(3);
    expect(ops.filter((o) => o.op === 'node').map((o) => (o as { id: string }).id)).toEqual([
      spans[0]!.spanId,
      spans[1]!.spanId,
    ]);
  });

  it('ends the run as the root span said: its output, the answer node, success', () => {
    const root = span({ attributes: { 'output.value': '(10 - 4) * (13 - 9) = 24' } });
    const win = span({ parentSpanId: root.spanId, attributes: { 'arborist.node.id': 'w', 'arborist.answer': true } });
    const { tree } = assemble([[win, root]]);
    expect(tree.finish()).toMatchObject({
      op: 'finish',
      output: '(10 - 4) * (13 - 9) = 24',
      best: 'w',
      success: true,
      reason: 'terminated',
    });
    const failed = new TraceTree(TRACE, options);
    failed.add([span({ status: { code: 'error', message: 'out of budget' } })], 0);
    expect(failed.finish()).toMatchObject({ success: false, reason: 'error', detail: 'out of budget' });
  });

  it('never treats the root or an agent span that names a model as a model call', () => {
    const root = span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
    const agent = span({
      parentSpanId: root.spanId,
      name: 'agent',
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'gpt-4o' },
    });
    const { nodes } = assemble([[agent, root]]);
    expect(nodes[agent.spanId]).toMatchObject({ calls: [] });
    expect(nodes[ROOT_NODE]!.calls).toEqual([]);
  });

  it('takes a trace of 100,000 spans sent children first, holding at most its cap while they wait', () => {
    const tree = new TraceTree(TRACE, { ...options, maxWaiting: 10_000 });
    const ids = Array.from({ length: 100_000 }, () => sid());
    // a chain: span i's parent is span i - 1; the exporter sends the deepest first, in batches of 512
    const spans = ids.map((id, i) => span({ spanId: id, parentSpanId: i === 0 ? null : ids[i - 1]! }));
    let made = 0;
    let most = 0;
    for (let end = spans.length; end > 0; end -= 512) {
      const { ops } = tree.add(spans.slice(Math.max(0, end - 512), end).reverse(), 0);
      made += ops.filter((o) => o.op === 'node').length;
      most = Math.max(most, tree.waitingSpans);
    }
    expect(most).toBeLessThanOrEqual(10_000);
    expect(made).toBe(99_999); // every span but the root is a node, placed once
    expect(tree.waitingSpans).toBe(0);
  });
});
