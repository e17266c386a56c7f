/**
 * A Tree-of-Thoughts beam search on the Game of 24, traced with OpenTelemetry and sent to Arborist's OTLP receiver,
 * where the trace becomes a run whose tree grows live. Self-contained: copy it into any project with the
 * OpenTelemetry packages it imports; it needs nothing from Arborist.
 *
 *   npx tsx lib/sdk/examples/otel-tot.ts [4 9 10 13] [--delay-ms 100]
 *
 * Environment: ARBORIST_URL (default http://127.0.0.1:3000), ARBORIST_API_KEY (team mode), TOT_DELAY_MS.
 * The search (breadth-first, as in Yao et al. 2023): from each state of the beam the model proposes next steps, the
 * model values each new state, the best BEAM states are kept and the rest pruned, until one step leaves 24.
 * The spans Arborist reads (its OTLP README has the whole table):
 * - the root span `tot.search` is the run: `arborist.goal`, and at the end `output.value` and `arborist.best`;
 * - a span with `arborist.node.id` and `arborist.node.parent_id` is a node: `arborist.thought`, `arborist.score`
 *   (0..1), `arborist.answer` on the winner; a later span naming the same node adds to it (`tot.expand` holds the
 *   call that proposed its children, `tot.prune` marks it `arborist.status` = pruned when the beam drops it);
 * - a GenAI `chat` span is a model call of the node span it is nested in, with its tokens and messages.
 */
import { type Attributes, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

const BEAM = 3; // states kept per level
const PROPOSALS = 8; // next steps the model proposes per state
const MODEL = 'local-24-heuristic';

const args = process.argv.slice(2);
const flag = args.indexOf('--delay-ms');
const delayMs = Number(flag >= 0 ? args.splice(flag, 2)[1] : (process.env.TOT_DELAY_MS ?? 100));
const puzzle = (args.join(' ').match(/\d+/g) ?? ['4', '9', '10', '13']).map(Number);
const base = (process.env.ARBORIST_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');

// --- tracing: spans batched and exported as protobuf to Arborist; register() makes startActiveSpan nest ---
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'otel-tot' }), // the run's agent
  spanProcessors: [
    new BatchSpanProcessor(
      new OTLPTraceExporter({
        url: `${base}/v1/traces`,
        headers: process.env.ARBORIST_API_KEY ? { Authorization: `Bearer ${process.env.ARBORIST_API_KEY}` } : {},
      }),
      { scheduledDelayMillis: 200 }, // send ended spans every 200 ms (default 5 s), so the page follows closely
    ),
  ],
});
provider.register();
const tracer = trace.getTracer('otel-tot');

// --- the puzzle's states: the numbers left, each with the expression that made it ---
interface Item {
  value: number;
  expr: string;
}
interface State {
  id: string;
  left: Item[];
  score: number;
  answer: boolean;
  path: string[]; // the thoughts from the root to here
}

/** Every state one arithmetic step away: two numbers replaced by their sum, difference, product or exact quotient. */
function nextSteps(left: Item[]): { thought: string; left: Item[] }[] {
  const steps: { thought: string; left: Item[] }[] = [];
  for (let i = 0; i < left.length; i++) {
    for (let j = 0; j < left.length; j++) {
      const [a, b] = [left[i]!, left[j]!];
      if (i === j || a.value < b.value || (a.value === b.value && i > j)) continue; // larger first, each pair once
      const rest = left.filter((_, k) => k !== i && k !== j);
      const ops: [string, number][] = [
        ['+', a.value + b.value],
        ['-', a.value - b.value],
        ['*', a.value * b.value],
      ];
      if (b.value !== 0 && a.value % b.value === 0) ops.push(['/', a.value / b.value]);
      for (const [op, value] of ops) {
        const next = [...rest, { value, expr: `(${a.expr} ${op} ${b.expr})` }];
        const shown = next.map((n) => n.value).sort((x, y) => x - y);
        steps.push({ thought: `${a.value} ${op} ${b.value} = ${value} (left: ${shown.join(' ')})`, left: next });
      }
    }
  }
  return steps;
}

/** Whether the numbers can still make 24 (what the value prompt asks the model to judge by trying a few steps). */
function canMake24(left: Item[]): boolean {
  if (left.length === 1) return left[0]!.value === 24;
  return nextSteps(left).some((step) => canMake24(step.left));
}

// --- the "model": a deterministic local stand-in for an LLM call, traced as one ---
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tokens = (text: string) => Math.ceil(text.length / 4); // a rough estimate: ~4 characters a token

/** One model call as a GenAI `chat` span: `answer` is the stand-in for what an LLM would answer to `prompt`. */
async function chat<T>(purpose: 'generate' | 'evaluate', prompt: string, answer: () => [string, T]): Promise<T> {
  return tracer.startActiveSpan(`chat ${MODEL}`, { kind: SpanKind.CLIENT }, async (span) => {
    await sleep(delayMs); // the latency of a real call
    const [reply, result] = answer();
    const attributes: Attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': MODEL,
      'arborist.purpose': purpose,
      'gen_ai.usage.input_tokens': tokens(prompt),
      'gen_ai.usage.output_tokens': tokens(reply),
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: reply }], finish_reason: 'stop' },
      ]),
    };
    span.setAttributes(attributes);
    span.end();
    return result;
  });
}

/** The propose prompt: up to PROPOSALS next steps, the ones that keep 24's factors first (an LLM's hunch). */
function propose(state: State) {
  const numbers = state.left.map((n) => n.value).join(' ');
  return chat('generate', `Input: ${numbers}\nPossible next steps:`, () => {
    const nice = (s: { left: Item[] }) => s.left.filter((n) => 24 % n.value === 0).length;
    const steps = nextSteps(state.left)
      .sort((x, y) => nice(y) - nice(x))
      .slice(0, PROPOSALS);
    return [steps.map((s) => s.thought).join('\n'), steps];
  });
}

/** The value prompt: sure / likely / impossible, as a score from 0 to 1. */
function evaluate(left: Item[]) {
  const numbers = left.map((n) => n.value).join(' ');
  return chat('evaluate', `Evaluate if given numbers can reach 24 (sure/likely/impossible)\n${numbers}`, () => {
    const reachable = canMake24(left);
    const verdict = left.length === 1 ? (reachable ? 'sure' : 'impossible') : reachable ? 'likely' : 'impossible';
    // a little preference for small numbers among the likely ones, so the beam's choice reads as a ranking
    const size = left.reduce((sum, n) => sum + Math.min(n.value, 100), 0) / 1000;
    const score = verdict === 'sure' ? 1 : verdict === 'likely' ? 0.8 - size : 0.1;
    return [verdict, Math.round(score * 100) / 100];
  });
}

// --- the search, each node a span ---
const goal = `Use ${puzzle.join(' ')} and + - * / to make 24`;
const counts = { nodes: 0, pruned: 0, calls: 0 };

/** The model's proposals from `parent`, in a later span of its node: the call that proposed its children is its. */
function expand(parent: State) {
  counts.calls += 1;
  // the root span ends last: the goal rides on the first span that ends too, so the run opens at once
  const attributes = { 'arborist.node.id': parent.id, ...(parent.id === 'root' && { 'arborist.goal': goal }) };
  return tracer.startActiveSpan('tot.expand', { attributes }, async (span) => {
    const steps = await propose(parent);
    span.end();
    return steps;
  });
}

/** A new node: its span holds the call that valued it; a step that leaves 24 is the answer. */
function visit(parent: State, step: { thought: string; left: Item[] }, index: number): Promise<State> {
  counts.nodes += 1;
  counts.calls += 1;
  const id = `${parent.id === 'root' ? 'n' : parent.id}.${index + 1}`;
  const attributes = { 'arborist.node.id': id, 'arborist.node.parent_id': parent.id, 'arborist.thought': step.thought };
  return tracer.startActiveSpan('tot.node', { attributes }, async (span) => {
    const score = await evaluate(step.left);
    const answer = step.left.length === 1 && step.left[0]!.value === 24;
    const result = answer && { 'arborist.answer': true, 'arborist.output': `${step.left[0]!.expr.slice(1, -1)} = 24` };
    span.setAttributes({ 'arborist.score': score, ...result });
    span.end();
    return { id, left: step.left, score, answer, path: [...parent.path, step.thought] };
  });
}

/** Level by level: expand each state of the beam, keep the best BEAM new states, prune the rest. */
async function search(): Promise<State | null> {
  let beam: State[] = [
    { id: 'root', left: puzzle.map((n) => ({ value: n, expr: String(n) })), score: 1, answer: false, path: [] },
  ];
  while (beam.length > 0 && beam[0]!.left.length > 1) {
    const level: State[] = [];
    for (const parent of beam) {
      for (const [i, step] of (await expand(parent)).entries()) {
        const child = await visit(parent, step, i);
        if (child.answer) return child;
        level.push(child);
      }
    }
    level.sort((x, y) => y.score - x.score);
    beam = level.slice(0, BEAM);
    for (const cut of level.slice(BEAM)) {
      // the beam's cut, as a span naming the node: a later span of a node adds to it
      const attributes = { 'arborist.node.id': cut.id, 'arborist.status': 'pruned' };
      tracer.startActiveSpan('tot.prune', { attributes }, (span) => span.end());
      counts.pruned += 1;
    }
  }
  return null;
}

const best = await tracer.startActiveSpan(
  'tot.search',
  { attributes: { 'arborist.node.id': 'root' } },
  async (root) => {
    console.log(`trace ${root.spanContext().traceId}`);
    console.log(`watch it: ${base}/?q=${root.spanContext().traceId}`);
    root.setAttribute('arborist.goal', goal);
    const found = await search();
    // the run's output and best node, read when the root span ends
    root.setAttributes(
      found
        ? { 'output.value': `${found.left[0]!.expr.slice(1, -1)} = 24`, 'arborist.best': found.id }
        : { 'output.value': 'no solution found', 'arborist.success': false },
    );
    root.end();
    return found;
  },
);

// flushes the spans still batched; the search's result is printed whether or not they could be sent
await provider.shutdown().catch((error: Error) => {
  console.error(`could not send the trace to ${base}: ${error.message}`);
  process.exitCode = 1;
});
// what the run's page shows once the trace has ended (its node count leaves out the root)
console.log(best ? `solved: ${best.left[0]!.expr.slice(1, -1)} = 24` : 'not solved');
console.log(
  `tree: ${counts.nodes + 1} nodes (the root and ${counts.nodes} steps), ${counts.pruned} pruned, ${counts.calls} model calls`,
);
if (best) console.log(`best path: ${best.path.join(' -> ')}`);
