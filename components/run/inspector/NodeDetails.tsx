'use client';
// One node in the inspector: a sticky head (status, id, the commands) over its sections. A branch node shows what
// it proposed and what came of it; the root shows the run (RunDetails). Then what people said of it (its labels and
// comments: discussion/NodeDiscussion). Every text from a model is rendered as
// text. Not responsible for which node is selected (Inspector) or the sections' own reading of events (sections).
import { useMutation } from '@tanstack/react-query';
import { displayStatus, statusLabel } from '@/lib/layout/index';
import { useTRPC } from '@/lib/trpc/index';
import type { ProposedAction } from '@/lib/contract/vocabulary';
import type { ThoughtNode } from '@/lib/engine/index';
import { useRunStore } from '../page/RunStoreContext';
import { actionLabel } from '@/lib/event-log/index';
import { useRunAccess } from '../page/RunAccess';
import { NodeCommandNote } from '../steering/SteerCommands';
import { useSteering } from '../steering/useSteering';
import { lastNodeCommand } from '@/lib/store/index';
import { DiffView } from '../code/LazyDiffView';
import { VerificationOutput } from '../code/VerificationOutput';
import { BranchTotals } from './BranchTotals';
import { CrosswordBoard } from './CrosswordBoard';
import { MctsStats } from './MctsStats';
import { MctsTrail } from './MctsTrail';
import { NodeDiscussion, NodeDiscussionSummary } from '../discussion/NodeDiscussion';
import { NodeAnnotations } from './NodeAnnotations';
import { RunDetails } from './RunDetails';
import { Dropped, Family, ModelCalls, ScoreBars, Section, TextBox, Timing, Usage } from './sections';
import styles from './Inspector.module.css';

export function NodeDetails({ runId, node }: { runId: string; node: ThoughtNode }) {
  const isRoot = node.parentId === null;
  const status = displayStatus(node);
  const isBest = useRunStore((s) => s.tree.bestNodeId === node.id);
  // prune and expand for whoever may steer the run (RunAccess.tsx); a reader sees the node only
  const { steer } = useRunAccess();
  return (
    <div className={styles.details} data-testid="inspector-node" data-node-id={node.id} data-status={status}>
      <header className={styles.head}>
        <div className={styles.headLine}>
          <span className={`badge st-${status}`}>{isRoot ? 'goal' : statusLabel(node)}</span>
          <span className={styles.nodeId}>{node.id}</span>
          <span className={styles.muted}>{isRoot ? 'root' : `depth ${node.depth}`}</span>
          {isBest && (
            <span className={styles.bestTag} title="The node the search chose: the end of the best path">
              best
            </span>
          )}
        </div>
        {steer && <NodeActions runId={runId} node={node} />}
      </header>
      <div className={styles.body}>
        <CrosswordBoard node={node} />
        {isRoot ? <RunDetails runId={runId} /> : <BranchDetails node={node} />}
        <Section title="Discussion" aside={<NodeDiscussionSummary nodeId={node.id} />} testId="inspector-discussion">
          <NodeDiscussion runId={runId} nodeId={node.id} />
        </Section>
        <MctsStats node={node} />
        <MctsTrail node={node} />
        <NodeAnnotations node={node} />
        <Dropped node={node} />
        <Timing node={node} />
        <Usage node={node} />
        <BranchTotals node={node} />
        <Family node={node} />
        <ModelCalls node={node} />
      </div>
    </div>
  );
}

function NodeActions({ runId, node }: { runId: string; node: ThoughtNode }) {
  const trpc = useTRPC();
  const steering = useSteering();
  const prune = useMutation(trpc.node.prune.mutationOptions());
  const expand = useMutation(trpc.node.expand.mutationOptions());
  const command = useRunStore((s) => lastNodeCommand(s.tree.commands, node.id));
  if (steering.unavailable) {
    return (
      <p className={styles.commandNote} data-testid="inspector-command-why">
        {capitalise(steering.unavailable)}.
      </p>
    );
  }
  const pruneWhy = steering.why('prune', node);
  const expandWhy = steering.why('expand', node);
  const busy = prune.isPending || expand.isPending;
  const error = prune.error?.message ?? expand.error?.message ?? null;
  const sent = prune.isSuccess ? 'prune' : expand.isSuccess ? 'expansion' : null;
  const reasons = [...new Set([pruneWhy, expandWhy].filter((r): r is string => r !== null))];
  const input = { runId, nodeId: node.id };
  const send = (which: 'prune' | 'expand') => {
    prune.reset();
    expand.reset();
    (which === 'prune' ? prune : expand).mutate(input);
  };
  return (
    <div className={styles.actions}>
      <div className={styles.actionButtons}>
        <span title={pruneWhy ?? 'Remove this node and its subtree from the search'}>
          <button
            type="button"
            className="btn btn-danger"
            data-testid="inspector-prune"
            disabled={pruneWhy !== null || busy}
            aria-describedby={pruneWhy ? 'inspector-command-why' : undefined}
            onClick={() => send('prune')}
          >
            Prune branch
          </button>
        </span>
        <span title={expandWhy ?? 'Ask for new candidates from this node, before anything else'}>
          <button
            type="button"
            className="btn"
            data-testid="inspector-expand"
            disabled={expandWhy !== null || busy}
            aria-describedby={expandWhy ? 'inspector-command-why' : undefined}
            onClick={() => send('expand')}
          >
            Expand again
          </button>
        </span>
      </div>
      {error ? (
        <p className={styles.commandError} role="alert" data-testid="inspector-command-error">
          {error}
        </p>
      ) : command ? (
        // a request to the search's own client: its life (waiting, applied, refused) is in the log
        <NodeCommandNote command={command} className={styles.commandNote} />
      ) : sent ? (
        <p className={styles.commandNote} role="status">
          {sent === 'prune' ? 'Prune' : 'Expansion'} sent:{' '}
          {steering.external ? 'waiting for the client to answer.' : 'it applies at the next step.'}
        </p>
      ) : reasons.length > 0 ? (
        <p className={styles.commandNote} id="inspector-command-why" data-testid="inspector-command-why">
          {capitalise(reasons.join('; '))}.
        </p>
      ) : null}
    </div>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function BranchDetails({ node }: { node: ThoughtNode }) {
  const external = useRunStore((s) => s.tree.external !== null);
  const branch = node.branch;
  return (
    <>
      {node.status === 'pruned' && (
        <div className={styles.prunedBox} data-testid="inspector-pruned">
          {node.pruneReason !== null ? (
            <>Pruned by the search, with its subtree: {node.pruneReason}</>
          ) : (
            <>
              Pruned by <b>{node.prunedBy ?? 'a person'}</b>, with its subtree.
            </>
          )}
        </div>
      )}
      {node.failureReason !== null && (
        <div className={styles.failureBox} data-testid="inspector-failure">
          <span className={styles.boxTitle}>Failed</span>
          <p className={styles.prose}>{failureText(node)}</p>
        </div>
      )}
      <Section title="Thought">
        <p className={styles.prose} data-testid="inspector-thought">
          {branch?.thought || <span className={styles.muted}>(empty)</span>}
        </p>
      </Section>
      {branch && (
        <Section title="Proposed action" aside={actionLabel(branch.proposedAction)}>
          <ActionBody action={branch.proposedAction} thought={branch.thought} />
        </Section>
      )}
      <Section title="Result" aside={node.result ? resultAside(node.result, external) : undefined}>
        {node.result ? (
          <TextBox text={node.result.response} label="result" />
        ) : (
          <p className={styles.muted}>{noResultText(node)}</p>
        )}
      </Section>
      {node.verification && branch?.proposedAction.type === 'code_change' ? (
        <Section title="Verification" aside="type-check and tests, in the sandbox">
          <div data-testid="inspector-verification" data-passed={node.verification.passed}>
            <VerificationOutput verification={node.verification} />
          </div>
        </Section>
      ) : (
        node.verification && (
          <Section title="Verification">
            <div
              className={node.verification.passed ? styles.verifyPass : styles.verifyFail}
              data-testid="inspector-verification"
              data-passed={node.verification.passed}
            >
              <span className={styles.verifyMark}>{node.verification.passed ? '✓ passed' : '✗ failed'}</span>
              <p className={styles.prose}>{node.verification.trace}</p>
            </div>
          </Section>
        )
      )}
      {node.score && <ScoreBars score={node.score} cumulative={node.cumulativeScore} />}
    </>
  );
}

/** The failure reason; a failed verification is said once, its trace being in the Verification section. */
function failureText(node: ThoughtNode): string {
  const v = node.verification;
  if (v && !v.passed && node.failureReason === `verification failed: ${v.trace}`) {
    return 'Its verification failed (the checker’s words are below), so the search backtracked.';
  }
  return node.failureReason ?? '';
}

function noResultText(node: ThoughtNode): string {
  switch (node.status) {
    case 'pending':
      return 'Not run yet.';
    case 'running':
      return 'Running…';
    case 'pruned':
      return 'Pruned before it ran.';
    default:
      return 'No result.';
  }
}

function ActionBody({ action, thought }: { action: ProposedAction; thought: string }) {
  switch (action.type) {
    case 'response':
      return action.content === thought ? (
        <p className={styles.muted}>The thought itself is the response.</p>
      ) : (
        <TextBox text={action.content} label="response" />
      );
    case 'sub_goal':
      return <TextBox text={action.goal} label="sub-goal" />;
    case 'tool_call':
      return (
        <>
          <p className={styles.kv}>
            <span className={styles.muted}>tool</span> <code>{action.toolName}</code>
          </p>
          <TextBox text={JSON.stringify(action.arguments, null, 2)} label="arguments" mono />
        </>
      );
    case 'code_change':
      return <DiffView diff={action.diff} />;
  }
}

/**
 * What the result section says beside its title: an answer, and the model turns the engine took to execute the node.
 * A search Arborist does not run reports no turns (the ingest API has none to send), so none are claimed for it.
 */
function resultAside(result: { isAnswer: boolean; iterations: number }, external: boolean): string | undefined {
  const turns = external ? null : `${result.iterations} model turn${result.iterations === 1 ? '' : 's'}`;
  const text = [result.isAnswer ? 'final answer' : null, turns].filter(Boolean).join(' · ');
  return text || undefined;
}
