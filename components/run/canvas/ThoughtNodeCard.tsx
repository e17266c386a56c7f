'use client';
// One node on the canvas: its status, the thought's first line, the composite score as a bar, its depth, MCTS Q and
// visits when the search gives them ("Q 0.62 · N 7", as of the step shown), and the marks a debugger needs at a
// glance: running now, next in the frontier, queued, on the best path, what a person did (and, on a search Arborist
// does not run, a command waiting for its client or refused by it), and a code change's verdict (tests pass, type
// error, tests failed, does not apply: lib/layout/code-change.ts).
// Between the card's readable zoom and the far level it is a pill: status colour, score bar (an MCTS node: its Q and N
// in its place), a few words in a large font, marks as dots (lib/layout/lod.ts says where each starts); the full
// labels stay in the page for screen readers. A node people commented on or labelled wears a badge at its top-right
// corner, on the card and the pill alike (discussion/DiscussionBadge, which reads its own node's entry).
// Memoized and reading only its own slices of the store, so a growing tree re-renders only what changed.
import { useStore, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import {
  CODE_VERDICT_LABELS,
  displayStatus,
  firstLine,
  levelOf,
  nodeCodeVerdict,
  mctsFigure,
  scoreFigure,
  rootThought,
  statusLabel,
  type ThoughtFlowNode,
} from '@/lib/layout/index';
import { nodeCommand } from '@/lib/store/index';
import { NodeHandles } from './orientation';
import { usePageView } from '../page/PageViewContext';
import { useRunStore } from '../page/RunStoreContext';
import { useIsShared } from './SharedNodes';
import { DiscussionBadge } from '../discussion/DiscussionBadge';

function ThoughtNodeCardImpl({ data, selected }: NodeProps<ThoughtFlowNode>) {
  const id = data.nodeId;
  const node = useRunStore((s) => s.tree.nodes[id]);
  const goal = useRunStore((s) => (s.tree.rootId === id ? s.tree.goal : null));
  const isBest = useRunStore((s) => s.bestNodeId === id);
  // the frontier means nothing once the run has finished
  const queued = useRunStore((s) => (s.tree.status === 'finished' ? undefined : s.tree.frontier[id]));
  const isNext = useRunStore((s) => s.nextNodeId === id);
  const actions = useRunStore((s) => s.personActions[id]);
  const pending = useRunStore((s) => s.pendingCommands[id]);
  // the same object until this node's command changes: a card re-renders only for its own
  const asked = useRunStore((s) => nodeCommand(s.tree.commands, id));
  const shared = useIsShared(id);
  // search hits (page-view store): booleans, so a new search re-renders only the cards whose mark changed
  const hit = usePageView((s) => s.search.hitSet.has(id));
  const activeHit = usePageView((s) => s.search.active >= 0 && s.search.hits[s.search.active] === id);
  // a boolean selector: the card re-renders when the level changes, not on every zoom step
  const pill = useStore((s) => levelOf(s.transform[2]) !== 'card');
  if (!node) return null;
  const status = displayStatus(node);
  const isRoot = node.parentId === null;
  const composite = node.score?.composite ?? null;
  const mcts = mctsFigure(node.mcts);
  const lastAction = actions?.at(-1);
  const marks: { key: string; label: string; tone: string; title?: string }[] = [];
  if (pending) marks.push({ key: 'pending', label: pending === 'prune' ? 'pruning…' : 'expanding…', tone: 'person' });
  else if (asked?.outcome === 'requested')
    marks.push({ key: 'asked', label: `${asked.kind} requested…`, tone: 'person' });
  else if (asked?.outcome === 'refused')
    marks.push({
      key: 'refused',
      label: `${asked.kind} refused`,
      tone: 'refused',
      title: `the client refused: ${asked.reason ?? 'no reason given'}`,
    });
  else if (lastAction?.type === 'expand')
    marks.push({ key: 'expand', label: `re-expanded by ${lastAction.actor}`, tone: 'person' });
  // a code change's verdict, so a failed check reads as why it failed (type error, tests, does not apply)
  const verdict = nodeCodeVerdict(node);
  if (verdict)
    marks.push({
      key: 'verdict',
      label: CODE_VERDICT_LABELS[verdict],
      tone: verdict === 'passed' ? 'verdict-pass' : 'verdict-fail',
      title: firstLine(node.verification?.trace ?? ''),
    });
  if (isNext) marks.push({ key: 'next', label: 'next', tone: 'next' });
  else if (queued)
    marks.push({ key: 'queued', label: queued.mode === 'expand' ? 'queued to grow' : 'queued', tone: 'queued' });
  if (isBest) marks.push({ key: 'best', label: 'best', tone: 'best' });
  if (shared) marks.push({ key: 'shared', label: 'shared', tone: 'shared' });
  const label = isRoot ? 'goal' : statusLabel(node);

  const thought = isRoot ? (goal ?? '') : (node.branch?.thought ?? '');
  // an external search's root may carry its own first state beside the goal
  const rootText = isRoot ? rootThought(node, goal ?? '') : null;
  const classes =
    `s-${status}${isBest ? ' is-best' : ''}${isRoot ? ' is-root' : ''}${selected ? ' is-selected' : ''}` +
    `${hit ? ' is-hit' : ''}${activeHit ? ' is-active-hit' : ''}`;

  if (pill) {
    return (
      <div
        className={`tnode tpill ${classes}`}
        data-testid="thought-node"
        data-node-id={id}
        data-status={status}
        data-best={isBest || undefined}
        data-level="pill"
        title={thought}
      >
        <NodeHandles />
        <DiscussionBadge nodeId={id} pill />
        <span className="tpill-words">{firstLine(thought, 60)}</span>
        <div className="tpill-foot">
          {mcts ? (
            // a node with MCTS statistics (an MCTS run or log): its figures in the bar's place, since they are what
            // the search goes by (the score is its prior, on the full card)
            <span className="tpill-mcts" aria-hidden="true" data-testid="node-mcts">
              {mcts}
            </span>
          ) : (
            <div className="tnode-bar">
              {composite !== null && <span style={{ width: `${Math.round(composite * 100)}%` }} />}
            </div>
          )}
          {marks.map((m) => (
            <span key={m.key} className={`pill-mark mark-${m.tone}`} data-testid={`mark-${m.key}`} title={m.label} />
          ))}
        </div>
        <span className="tpill-sr">
          {label} · {id}
          {node.score ? ` · ${scoreFigure(node.score)}` : ''}
          {mcts ? ` · ${mcts}` : ''}
          {marks.map((m) => ` · ${m.label}`).join('')}
        </span>
      </div>
    );
  }

  return (
    <div
      className={`tnode ${classes}`}
      data-testid="thought-node"
      data-node-id={id}
      data-status={status}
      data-best={isBest || undefined}
      data-level="card"
    >
      <NodeHandles />
      <DiscussionBadge nodeId={id} />
      <div className="tnode-top">
        <span className={`badge st-${isRoot ? 'root' : status}`}>{label}</span>
        <span className="mono tnode-id">
          {id} · d{node.depth}
          {node.score ? ` · ${scoreFigure(node.score)}` : ''}
        </span>
      </div>
      <div className="tnode-thought" title={thought}>
        {isRoot ? goal : firstLine(node.branch?.thought ?? '')}
      </div>
      {rootText && (
        <div className="tnode-root-thought" data-testid="node-root-thought" title={rootText}>
          {firstLine(rootText, 60)}
        </div>
      )}
      {mcts && (
        <div className="tnode-mcts mono" data-testid="node-mcts">
          {mcts}
        </div>
      )}
      {composite !== null && (
        <div
          className="tnode-bar"
          role="meter"
          aria-valuenow={composite}
          aria-valuemin={0}
          aria-valuemax={1}
          aria-label="composite score"
        >
          <span style={{ width: `${Math.round(composite * 100)}%` }} />
        </div>
      )}
      {marks.length > 0 && (
        <div className="tnode-marks">
          {marks.map((m) => (
            <span key={m.key} className={`mark mark-${m.tone}`} data-testid={`mark-${m.key}`} title={m.title}>
              {m.label}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

export const ThoughtNodeCard = memo(ThoughtNodeCardImpl);
