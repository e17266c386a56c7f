/**
 * What a span says in the vocabularies people already trace with: Arborist's own attributes (`arborist.*`), the
 * OpenTelemetry GenAI conventions (`gen_ai.*`, current and the older `gen_ai.prompt.N.*`), OpenInference
 * (`openinference.span.kind`, `llm.*`, `input.value`, `graph.node.*`) and OpenLLMetry (`llm.request.type`,
 * `gen_ai.usage.prompt_tokens`). Each reader takes a span and answers one question (is it a model call, which
 * model, how many tokens, which messages), so the mapping (trace-tree.ts) reads as the README's table.
 * Pure. Not responsible for where a span goes in the tree (trace-tree.ts) or for decoding (the decoders).
 */
import type { ChatMessage } from '../../contract/vocabulary';
import type { AttributeValue, Attributes, OtlpSpan } from './spans';

/** The attribute names Arborist reads itself (the README's table). */
export const ARBORIST = {
  nodeId: 'arborist.node.id',
  parentId: 'arborist.node.parent_id',
  thought: 'arborist.thought',
  score: 'arborist.score',
  status: 'arborist.status',
  backtrackTo: 'arborist.backtrack_to',
  goal: 'arborist.goal',
  output: 'arborist.output',
  answer: 'arborist.answer',
  best: 'arborist.best',
  success: 'arborist.success',
  purpose: 'arborist.purpose',
  task: 'arborist.task',
} as const;

const GRAPH_NODE_ID = 'graph.node.id';
const GRAPH_PARENT_ID = 'graph.node.parent_id';

export function text(attributes: Attributes, key: string): string | null {
  const value = attributes[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function nonEmpty(attributes: Attributes, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = text(attributes, key);
    if (value !== null && value.trim() !== '') return value;
  }
  return null;
}

function count(attributes: Attributes, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = attributes[key];
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return Math.round(n);
  }
  return null;
}

/** OpenInference's span kind, upper-cased ("LLM", "CHAIN", "EVALUATOR"), or null. */
function openInferenceKind(span: OtlpSpan): string | null {
  return text(span.attributes, 'openinference.span.kind')?.toUpperCase() ?? null;
}

const GENAI_CALL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion']);

/**
 * A model call: GenAI's operation chat / text_completion / generate_content, OpenInference's LLM kind, or
 * OpenLLMetry's `llm.request.type`. A root span, or an agent span that names a model (GenAI invoke_agent,
 * OpenInference AGENT), is not one: it is the search itself.
 */
export function isModelCall(span: OtlpSpan): boolean {
  if (span.parentSpanId === null) return false;
  const kind = openInferenceKind(span);
  if (kind !== null) return kind === 'LLM';
  const operation = text(span.attributes, 'gen_ai.operation.name');
  if (operation !== null) return GENAI_CALL_OPERATIONS.has(operation);
  return text(span.attributes, 'llm.request.type') !== null;
}

/** An evaluator's score: OpenInference EVALUATOR with evaluation.score / eval.score; null for any other span. */
export function evaluatorScore(span: OtlpSpan): { name: string; value: number } | null {
  if (openInferenceKind(span) !== 'EVALUATOR') return null;
  const value = number(span.attributes['evaluation.score'] ?? span.attributes['eval.score']);
  if (value === null) return null;
  return { name: nonEmpty(span.attributes, 'evaluation.name', 'eval.name') ?? span.name, value };
}

/** The scores a span's `gen_ai.evaluation.result` events carry (name -> value). */
export function evaluationEvents(span: OtlpSpan): { name: string; value: number }[] {
  return span.events.flatMap((event) => {
    if (event.name !== 'gen_ai.evaluation.result') return [];
    const value = number(event.attributes['gen_ai.evaluation.score.value']);
    if (value === null) return [];
    return [{ name: nonEmpty(event.attributes, 'gen_ai.evaluation.name') ?? 'evaluation', value }];
  });
}

function number(value: AttributeValue | undefined): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A node's explicit id (arborist.node.id, else OpenInference's graph.node.id). */
export function explicitNodeId(span: OtlpSpan): string | null {
  return nonEmpty(span.attributes, ARBORIST.nodeId, GRAPH_NODE_ID);
}

/** A node's explicit parent (arborist.node.parent_id, else graph.node.parent_id). */
export function explicitParentId(span: OtlpSpan): string | null {
  return nonEmpty(span.attributes, ARBORIST.parentId, GRAPH_PARENT_ID);
}

/** The model a call names: requested, else answered (GenAI), OpenInference's, OpenLLMetry's. */
export function modelOf(span: OtlpSpan): string | null {
  return nonEmpty(
    span.attributes,
    'gen_ai.request.model',
    'gen_ai.response.model',
    'llm.model_name',
    'llm.request.model',
    'llm.response.model',
  );
}

export function tokensOf(span: OtlpSpan): { inputTokens: number; outputTokens: number } {
  const a = span.attributes;
  return {
    inputTokens:
      count(
        a,
        'gen_ai.usage.input_tokens',
        'gen_ai.usage.prompt_tokens',
        'llm.token_count.prompt',
        'llm.usage.prompt_tokens',
      ) ?? 0,
    outputTokens:
      count(
        a,
        'gen_ai.usage.output_tokens',
        'gen_ai.usage.completion_tokens',
        'llm.token_count.completion',
        'llm.usage.completion_tokens',
      ) ?? 0,
  };
}

/** Roles Arborist's messages have; a tool's answer reads as the user's turn, a developer message as the system's. */
function role(value: string | null): ChatMessage['role'] {
  if (value === 'system' || value === 'developer') return 'system';
  if (value === 'assistant' || value === 'model' || value === 'ai') return 'assistant';
  return 'user';
}

/** The text of a GenAI message's parts (text parts as they are, others as JSON). */
function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => {
      if (part && typeof part === 'object' && 'content' in part && typeof part.content === 'string')
        return part.content;
      return JSON.stringify(part);
    })
    .join('\n');
}

/** GenAI's JSON messages (`gen_ai.input.messages`: [{role, parts: [{type, content}]}]); null when absent or not JSON. */
function jsonMessages(attributes: Attributes, key: string): ChatMessage[] | null {
  const raw = attributes[key];
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(parsed)) return null;
  return parsed.flatMap((m: unknown) => {
    if (!m || typeof m !== 'object') return [];
    const message = m as { role?: unknown; parts?: unknown; content?: unknown };
    const content = message.parts !== undefined ? partsText(message.parts) : partsText(message.content);
    return [{ role: role(typeof message.role === 'string' ? message.role : null), content }];
  });
}

/** Indexed flat messages: `<prefix>.0.role`, `<prefix>.0.content` (GenAI's older form, OpenInference's). */
function indexedMessages(attributes: Attributes, prefix: string, roleKey: string, contentKey: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = 0; ; i += 1) {
    const content = text(attributes, `${prefix}.${i}.${contentKey}`);
    const roleText = text(attributes, `${prefix}.${i}.${roleKey}`);
    if (content === null && roleText === null) break;
    messages.push({ role: role(roleText), content: content ?? '' });
  }
  return messages;
}

/** What the call was sent: GenAI JSON, GenAI's older indexed form, OpenInference's, else the span's input value. */
export function inputMessages(span: OtlpSpan): ChatMessage[] {
  const a = span.attributes;
  const found =
    jsonMessages(a, 'gen_ai.input.messages') ??
    nonEmptyList(indexedMessages(a, 'gen_ai.prompt', 'role', 'content')) ??
    nonEmptyList(indexedMessages(a, 'llm.input_messages', 'message.role', 'message.content'));
  if (found) return found;
  const input = nonEmpty(a, 'input.value', 'gen_ai.prompt');
  return input === null ? [] : [{ role: 'user', content: input }];
}

/** What the call answered, as one text. */
export function outputText(span: OtlpSpan): string | null {
  const a = span.attributes;
  const messages =
    jsonMessages(a, 'gen_ai.output.messages') ??
    nonEmptyList(indexedMessages(a, 'gen_ai.completion', 'role', 'content')) ??
    nonEmptyList(indexedMessages(a, 'llm.output_messages', 'message.role', 'message.content'));
  if (messages?.length) return messages.map((m) => m.content).join('\n');
  return nonEmpty(a, 'output.value', 'gen_ai.completion');
}

function nonEmptyList<T>(list: T[]): T[] | null {
  return list.length > 0 ? list : null;
}

/** A span's input in words: arborist.goal, input.value, else its first user message. */
export function inputText(span: OtlpSpan): string | null {
  const direct = nonEmpty(span.attributes, ARBORIST.goal, 'input.value');
  if (direct !== null) return direct;
  const messages = inputMessages(span);
  return messages.find((m) => m.role === 'user')?.content ?? messages[0]?.content ?? null;
}

/** The words of a span's events, for the node's trace: "exception: TypeError: x is undefined". */
export function eventLines(span: OtlpSpan): string[] {
  return span.events.map((event) => {
    if (event.name === 'exception') {
      const type = text(event.attributes, 'exception.type');
      const message = text(event.attributes, 'exception.message');
      return `exception: ${[type, message].filter(Boolean).join(': ') || '(no message)'}`;
    }
    const keys = Object.keys(event.attributes);
    return keys.length === 0 ? event.name : `${event.name}: ${JSON.stringify(event.attributes)}`;
  });
}
