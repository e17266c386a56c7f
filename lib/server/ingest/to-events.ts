/**
 * An item to the canonical events it stands for: an event item as it is, an operation (`op`) as the events the
 * engine would have written for it (a node with scores is node.created then node.annotated). Pure; seqs and the run
 * id are given by the log room (numberDrafts); the service checks the events against the tree (foldChecked).
 * Not responsible for checking the items (validate.ts) nor for whether the events fit the run (service.ts).
 */
import type { EventPayloads, ExplorationEventType } from '../../contract/events';
import type { IngestItem, IngestOp } from '../../contract/ingest';
import type { EventDraft } from '../run-log/index';

function draft<K extends ExplorationEventType>(type: K, payload: EventPayloads[K]): EventDraft {
  return { type, payload } as EventDraft;
}

type Annotations = Pick<Extract<IngestOp, { op: 'annotate' }>, 'scores' | 'metadata' | 'mcts'>;

function annotation(nodeId: string, { scores, metadata, mcts }: Annotations): EventDraft[] {
  if (!scores && !metadata && !mcts) return [];
  return [
    draft('node.annotated', {
      nodeId,
      ...(scores && { scores }),
      ...(metadata && { metadata }),
      ...(mcts && { mcts }),
    }),
  ];
}

/** The events of one operation; `modelId` names a model call's model when the call does not. */
export function opEvents(op: IngestOp, modelId: string): EventDraft[] {
  switch (op.op) {
    case 'node': {
      const score =
        op.score === undefined
          ? null
          : { confidence: null, progress: null, novelty: null, composite: op.score, reasoning: '', fallback: false };
      // the root is the goal (the engine's has no branch); a root given a thought (the search's own first state, as
      // the SDKs' examples give it: "4 9 10 13") keeps it, shown beside the goal; its score is not stored
      const branch =
        op.parent === null && op.thought === '' && !op.action
          ? null
          : { thought: op.thought, proposedAction: op.action ?? { type: 'response' as const, content: op.thought } };
      return [
        draft('node.created', { nodeId: op.id, parentId: op.parent, branch, score: op.parent === null ? null : score }),
        ...annotation(op.id, op),
      ];
    }
    case 'annotate':
      return annotation(op.node, op);
    case 'start':
      return [draft('node.started', { nodeId: op.node, mode: op.mode })];
    case 'call':
      return [
        draft('model.called', {
          nodeId: op.node,
          purpose: op.purpose,
          modelId: op.model ?? modelId,
          messages: op.messages,
          response: op.response,
          error: op.error,
          usage: { inputTokens: op.inputTokens, outputTokens: op.outputTokens },
          cost: op.cost,
          latencyMs: op.latencyMs,
        }),
      ];
    case 'complete':
      return [
        draft('node.completed', {
          nodeId: op.node,
          result: { response: op.response, iterations: 0, isAnswer: op.answer },
        }),
      ];
    case 'verify':
      return [draft('node.verified', { nodeId: op.node, passed: op.passed, trace: op.trace })];
    case 'fail':
      return [draft('node.failed', { nodeId: op.node, reason: op.reason })];
    case 'prune':
      return op.actor === undefined
        ? [draft('node.pruned', { nodeId: op.node, reason: op.reason })]
        : [draft('steer.prune', { nodeId: op.node, actor: op.actor })];
    case 'backtrack':
      return [draft('backtrack', { fromId: op.from, toId: op.to, reason: op.reason })];
    case 'ack':
      return [draft('steer.acked', { requestSeq: op.command, outcome: op.outcome, reason: op.reason })];
    case 'finish':
      return [finishEvent(op)];
  }
}

/** run.finished of a finish operation (also the finish route's, which has no seq). */
export function finishEvent(op: Omit<Extract<IngestOp, { op: 'finish' }>, 'seq' | 'ts' | 'op'>): EventDraft {
  return draft('run.finished', {
    reason: op.reason,
    detail: op.detail,
    bestNodeId: op.best,
    output: op.output,
    answerSource: op.best !== null && op.output !== '' ? 'node' : 'none',
    success: op.success,
    verified: op.verified,
  });
}

/** The events of one item: an event item as it is. */
export function itemEvents(item: IngestItem, modelId: string): EventDraft[] {
  if ('op' in item) return opEvents(item, modelId);
  return [{ type: item.type, payload: item.payload } as EventDraft];
}
