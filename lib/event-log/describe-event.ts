/**
 * How one event reads in the event log: its kind (the coloured tag), the nodes it is about, the person who sent it
 * (steer.*), a one-line summary, and its time as an offset from run.started.
 * Pure and React-free so it is unit-tested; not responsible for filtering (filter.ts) or drawing (EventLog.tsx).
 * Text from models (thoughts, responses, reasons) is returned as plain strings: callers render it as text.
 */
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '@/lib/contract/events';
import type { ProposedAction } from '@/lib/contract/vocabulary';
import { formatCost, formatDuration } from '@/lib/contract/format';
import { scoreFigure } from '@/lib/layout/index';
import { MCTS_SOURCE_LABELS } from './mcts';

export type EventKind =
  'run' | 'lifecycle' | 'expansion' | 'score' | 'verification' | 'backtrack' | 'mcts' | 'model' | 'steer';

/** Kinds in the order the filter chips show them, with their labels. */
export const EVENT_KINDS: readonly { kind: EventKind; label: string }[] = [
  { kind: 'lifecycle', label: 'node' },
  { kind: 'expansion', label: 'expansion' },
  { kind: 'score', label: 'score / drop' },
  { kind: 'verification', label: 'verification' },
  { kind: 'backtrack', label: 'backtrack' },
  { kind: 'mcts', label: 'selection / backup' },
  { kind: 'model', label: 'model call' },
  { kind: 'steer', label: 'steer' },
  { kind: 'run', label: 'run' },
];

const KIND_OF: Record<ExplorationEventType, EventKind> = {
  'run.queued': 'run',
  'run.started': 'run',
  'run.paused': 'run',
  'run.resumed': 'run',
  'run.interrupted': 'run',
  'run.failed': 'run',
  'run.finished': 'run',
  'node.created': 'lifecycle',
  'node.restored': 'lifecycle',
  'node.queued': 'lifecycle',
  'node.started': 'lifecycle',
  'node.completed': 'lifecycle',
  'node.failed': 'lifecycle',
  'branches.generated': 'expansion',
  'node.expanded': 'expansion',
  'branch.scored': 'score',
  'candidate.dropped': 'score',
  'node.verified': 'verification',
  'node.annotated': 'score',
  'node.pruned': 'backtrack',
  backtrack: 'backtrack',
  'mcts.selected': 'mcts',
  'mcts.backpropagated': 'mcts',
  'model.called': 'model',
  'steer.prune': 'steer',
  'steer.expand': 'steer',
  'steer.pause': 'steer',
  'steer.resume': 'steer',
  'steer.step': 'steer',
  'steer.abort': 'steer',
  'steer.requested': 'steer',
  'steer.acked': 'steer',
  'breakpoints.set': 'steer',
};

export function eventKind(type: ExplorationEventType): EventKind {
  return KIND_OF[type];
}

/**
 * The event types of one kind, in the filter's order. Read from KIND_OF (complete by its type) rather than from the
 * contract's EVENT_TYPES, whose schemas would bring zod to the run page only to list names.
 */
export function typesOfKind(kind: EventKind): ExplorationEventType[] {
  return (Object.keys(KIND_OF) as ExplorationEventType[]).filter((type) => KIND_OF[type] === kind);
}

/** The nodes an event is about: the first is the one a click selects. A backtrack is about both ends. */
export function eventNodeIds(event: ExplorationEvent): string[] {
  switch (event.type) {
    case 'backtrack':
      return event.payload.toId ? [event.payload.fromId, event.payload.toId] : [event.payload.fromId];
    case 'model.called':
      return event.payload.nodeId ? [event.payload.nodeId] : [];
    case 'run.resumed':
      return event.payload.rolledBackNodeId ? [event.payload.rolledBackNodeId] : [];
    case 'steer.requested':
      return event.payload.nodeId ? [event.payload.nodeId] : [];
    case 'run.paused':
      return event.payload.reason === 'breakpoint' && event.payload.hit.nodeId ? [event.payload.hit.nodeId] : [];
    case 'mcts.selected':
      return [event.payload.leafId, ...event.payload.hops.map((hop) => hop.parentId)];
    case 'mcts.backpropagated':
      return event.payload.value === null ? [event.payload.nodeId] : event.payload.path;
    case 'breakpoints.set':
    case 'steer.acked':
    case 'run.queued':
    case 'run.started':
    case 'run.interrupted':
    case 'run.failed':
    case 'run.finished':
    case 'steer.pause':
    case 'steer.resume':
    case 'steer.step':
    case 'steer.abort':
      return [];
    default:
      return [event.payload.nodeId];
  }
}

/** Who sent a steering command or queued the run; null for the engine's own events. */
export function eventActor(event: ExplorationEvent): string | null {
  return 'actor' in event.payload ? (event.payload.actor ?? null) : null;
}

/** True for events that report something going wrong (drawn in the failure colour). A drop is routine: not one. */
export function isBadEvent(event: ExplorationEvent): boolean {
  switch (event.type) {
    case 'node.failed':
      return true;
    case 'steer.acked':
      return event.payload.outcome === 'refused';
    case 'node.verified':
      return !event.payload.passed;
    case 'model.called':
      return event.payload.error !== null;
    case 'run.failed':
    case 'run.interrupted':
      return true;
    case 'run.finished':
      return !event.payload.success || event.payload.verified === false;
    default:
      return false;
  }
}

/** One line: newlines collapsed, cut at max characters. */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function actionLabel(action: ProposedAction): string {
  switch (action.type) {
    case 'response':
      return 'direct response';
    case 'sub_goal':
      return 'sub-goal';
    case 'tool_call':
      return `tool call: ${action.toolName}`;
    case 'code_change':
      return 'code change';
  }
}

const QUEUED_BECAUSE: Record<EventPayloads['run.queued']['reason'], string> = {
  new: 'waits for a free slot',
  fork: 'forked: waits for a free slot',
  resume: 'waits for a free slot to continue',
};

/** A one-line summary of an event, per type. */
export function describeEvent(event: ExplorationEvent): string {
  switch (event.type) {
    case 'run.queued':
      return QUEUED_BECAUSE[event.payload.reason];
    case 'run.started': {
      const p = event.payload;
      return oneLine(`“${p.goal}” · ${p.taskId} · ${p.modelId} · ${p.config.explorationStrategy}`);
    }
    case 'node.created': {
      const p = event.payload;
      if (!p.parentId || !p.branch) return 'root: the goal';
      const score = p.score ? ` (${scoreFigure(p.score)})` : '';
      return oneLine(`child of ${p.parentId}${score}: ${p.branch.thought}`);
    }
    case 'node.restored': {
      const p = event.payload;
      const from = p.from ? ` from run ${p.from.runId.slice(0, 8)} ${p.from.nodeId}` : '';
      return oneLine(`copied${from} (${p.status}): ${p.branch.thought}`);
    }
    case 'branches.generated': {
      const p = event.payload;
      const n = p.branches.length;
      return `${n} candidate${n === 1 ? '' : 's'}${p.fallback ? ' · fallback: the answer could not be parsed' : ''}`;
    }
    case 'branch.scored': {
      const p = event.payload;
      const fallback = p.score.fallback ? ' · fallback score' : '';
      return oneLine(`#${p.index} ${scoreFigure(p.score)}${fallback} · ${p.branch.thought}`);
    }
    case 'candidate.dropped': {
      const p = event.payload;
      return oneLine(`#${p.index} dropped (${scoreFigure(p.score)}): ${p.branch.thought} · ${p.reason}`);
    }
    case 'node.queued':
      return `queued to ${event.payload.mode}${event.payload.urgent ? ' (urgent)' : ''}`;
    case 'node.started':
      return event.payload.mode === 'execute' ? 'runs' : 'expands';
    case 'model.called': {
      const p = event.payload;
      const tokens = `${p.usage.inputTokens}→${p.usage.outputTokens} tok`;
      const cost = p.cost === null ? 'unpriced' : formatCost(p.cost);
      const head = `${p.purpose} · ${p.modelId} · ${formatDuration(p.latencyMs)} · ${tokens} · ${cost}`;
      return oneLine(p.error !== null ? `${head} · error: ${p.error}` : head);
    }
    case 'node.completed': {
      const r = event.payload.result;
      return oneLine(`${r.isAnswer ? 'answer' : 'result'}: ${r.response}`);
    }
    case 'node.verified':
      return oneLine(`${event.payload.passed ? '✓ passed' : '✗ failed'}: ${event.payload.trace}`);
    case 'node.expanded': {
      const ids = event.payload.childIds;
      return ids.length ? `→ ${ids.join(', ')}` : 'no children to queue';
    }
    case 'node.failed':
      return oneLine(event.payload.reason);
    case 'backtrack': {
      const p = event.payload;
      return oneLine(`${p.fromId} → ${p.toId ?? 'nowhere left'}: ${p.reason}`);
    }
    case 'steer.prune':
      return `prune ${event.payload.nodeId} and its subtree`;
    case 'steer.expand':
      return `expand ${event.payload.nodeId} again`;
    case 'steer.pause':
      return 'pause';
    case 'steer.resume':
      return 'resume';
    case 'steer.step':
      return 'one step';
    case 'steer.abort':
      return 'abort';
    case 'steer.requested': {
      const p = event.payload;
      const why = p.hit ? ` (breakpoint: ${p.hit.detail})` : '';
      return oneLine(p.nodeId ? `asks the client: ${p.kind} ${p.nodeId}${why}` : `asks the client: ${p.kind}${why}`);
    }
    case 'steer.acked': {
      const p = event.payload;
      const reason = p.reason ? `: ${p.reason}` : '';
      return oneLine(`the client ${p.outcome} request #${p.requestSeq}${reason}`);
    }
    case 'node.annotated': {
      const p = event.payload;
      const parts = [
        ...Object.entries(p.scores ?? {}).map(([name, value]) => `${name} ${value ?? '—'}`),
        ...Object.entries(p.mcts ?? {}).map(([name, value]) => `${name.toUpperCase()} ${value ?? '—'}`),
        ...Object.keys(p.metadata ?? {}),
      ];
      return oneLine(parts.length ? parts.join(' · ') : 'no change');
    }
    case 'node.pruned':
      return oneLine(`pruned by the search: ${event.payload.reason}`);
    case 'mcts.selected': {
      const p = event.payload;
      const walk = p.hops.length
        ? `${p.hops[0]?.parentId} → ${p.hops.map((hop) => hop.chosenId).join(' → ')}`
        : p.leafId;
      return `iteration ${p.iteration}: selects ${p.leafId} (${walk})`;
    }
    case 'mcts.backpropagated': {
      const p = event.payload;
      if (p.value === null) return `iteration ${p.iteration}: abandoned (${p.nodeId} was pruned), nothing backed up`;
      return `iteration ${p.iteration}: value ${p.value.toFixed(2)} of ${p.nodeId} (${MCTS_SOURCE_LABELS[p.source]}) backed up through ${p.path.length} node${p.path.length === 1 ? '' : 's'}`;
    }
    case 'run.paused':
      return event.payload.reason === 'step'
        ? 'paused after one step'
        : oneLine(`stopped at a breakpoint: ${event.payload.hit.detail}`);
    case 'breakpoints.set': {
      const list = event.payload.breakpoints;
      const on = list.filter((b) => b.enabled).length;
      return list.length === 0 ? 'breakpoints cleared' : `breakpoints: ${on} of ${list.length} on`;
    }
    case 'run.resumed':
      return event.payload.rolledBackNodeId
        ? `continued from the log; the step on ${event.payload.rolledBackNodeId} was rolled back`
        : 'continued from the log';
    case 'run.interrupted':
      return oneLine(`interrupted: ${event.payload.reason}`);
    case 'run.failed':
      return oneLine(`failed: ${event.payload.error}`);
    case 'run.finished': {
      const p = event.payload;
      const verified = p.verified === null ? '' : p.verified ? ' · verified' : ' · not verified';
      const detail = p.detail ? ` (${p.detail})` : '';
      return oneLine(`${p.reason}${detail}${verified} · ${p.output || 'no output'}`);
    }
  }
}

/** Time since the run started: "+0.123s", "+12.345s", "+1:02.345", "+1:02:03.004". */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const total = Math.abs(Math.round(ms));
  const millis = String(total % 1000).padStart(3, '0');
  const seconds = Math.floor(total / 1000);
  if (seconds < 60) return `${sign}${seconds}.${millis}s`;
  const s = String(seconds % 60).padStart(2, '0');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${sign}${minutes}:${s}.${millis}`;
  const m = String(minutes % 60).padStart(2, '0');
  return `${sign}${Math.floor(minutes / 60)}:${m}:${s}.${millis}`;
}
