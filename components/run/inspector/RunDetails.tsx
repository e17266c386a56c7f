'use client';
// The root's view in the inspector: the run itself. The goal, task, model and config (an imported run says from
// what; the limit of calls in flight among it); where the search is (stats, the attempts its backend retried when
// there were any); and once finished, its output (a code run's as its public output: the change and its patch,
// PublicOutput.tsx), why it finished, whether the answer was verified and where it came from. The tree's stats are
// updated in place, so this view follows `version`; it is shown for the root only. A search Arborist does not run
// shows its own config in place of the engine's (then only the defaults) and the commands asked of its client, each
// with its answer. A Monte Carlo tree search's config adds its own settings (iterations begun / budget, c, rollout
// depth, backup, best by: lib/layout mctsSettingFacts) and leaves out the beam width, which it does not use.
// Not responsible for the run's commands (RunHeader) or the root's own sections (NodeDetails).
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { type AnswerSource, DEFAULT_MAX_CONCURRENT_CALLS, type ToTConfig } from '@/lib/contract/vocabulary';
import { formatCost, formatDuration, formatSpend, formatTokens } from '@/lib/contract/format';
import { describeImportTag } from '@/lib/contract/import-tag';
import { parseCodeOutput } from '@/lib/contract/code';
import { clientName } from '@/lib/contract/steering';
import { taskLabel } from '@/lib/contract/tasks';
import type { ThoughtTree } from '@/lib/engine/index';
import { formatScore, mctsSettingFacts, rootThought } from '@/lib/layout/index';
import { useTRPC } from '@/lib/trpc/index';
import { useRunStore } from '../page/RunStoreContext';
import { formatClock } from '@/lib/event-log/index';
import { jsonText } from '@/lib/store/index';
import { BenchRequest } from '../code/BenchRequest';
import { finishReasonText } from './finish-reasons';
import { PublicOutput } from '../code/PublicOutput';
import { SteerCommandList } from '../steering/SteerCommands';
import { Section, TextBox } from './sections';
import styles from './Inspector.module.css';

const ANSWER_SOURCES: Record<AnswerSource, string> = {
  node: 'the best node’s own answer',
  synthesis: 'one synthesis call over the best path',
  none: 'nowhere: no answer',
};

const CONFIG_ROWS: { key: keyof ToTConfig; label: string }[] = [
  { key: 'explorationStrategy', label: 'strategy' },
  { key: 'maxDepth', label: 'max depth' },
  { key: 'branchFactor', label: 'branch factor' },
  { key: 'beamWidth', label: 'beam width' },
  { key: 'confidenceThreshold', label: 'keep threshold' },
  { key: 'terminationConfidence', label: 'stop confidence' },
  { key: 'maxTotalNodes', label: 'node limit' },
  { key: 'maxIterationsPerBranch', label: 'turns per branch' },
  { key: 'timeout', label: 'timeout' },
  { key: 'maxCostUsd', label: 'cost cap' },
  { key: 'maxConcurrentCalls', label: 'calls in flight' },
  { key: 'confidenceWeight', label: 'confidence weight' },
  { key: 'progressWeight', label: 'progress weight' },
  { key: 'noveltyWeight', label: 'novelty weight' },
];

function configValue(config: ToTConfig, key: keyof ToTConfig): string {
  const value = config[key];
  if (key === 'timeout') return value === null ? 'none' : formatDuration(value as number);
  if (key === 'maxCostUsd') return typeof value === 'number' ? formatCost(value) : 'none';
  // a config stored before the limit existed, or made without it, runs at the default
  if (key === 'maxConcurrentCalls')
    return value === undefined ? `${DEFAULT_MAX_CONCURRENT_CALLS} (default)` : String(value);
  if (typeof value === 'number' && !Number.isInteger(value)) return formatScore(value);
  return String(value);
}

export function RunDetails({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const record = useQuery(trpc.run.byId.queryOptions({ id: runId })).data;
  useRunStore((s) => s.version); // the tree's stats and outcome are updated in place; version says when
  const tree = useRunStore((s) => s.tree);
  const { stats } = tree;
  const root = tree.rootId ? tree.nodes[tree.rootId] : undefined;
  const finished = tree.status === 'finished';
  const task = taskLabel(tree.taskId);
  const duration = tree.startedAt !== null && tree.finishedAt !== null ? tree.finishedAt - tree.startedAt : null;

  return (
    <>
      <Section title="Goal">
        <p className={styles.prose} data-testid="inspector-goal">
          {tree.goal}
        </p>
        {root && rootThought(root, tree.goal) && (
          // an external search's own text for its root (its first state), kept beside the goal
          <p className={styles.muted} data-testid="inspector-root-thought">
            The search’s root: {rootThought(root, tree.goal)}
          </p>
        )}
        <BenchRequest taskId={tree.taskId} goal={tree.goal} />
      </Section>

      {finished && <OutcomeSection runId={runId} tree={tree} />}

      {tree.external && (
        <Section title="Commands" aside={`${tree.commands.length} asked`} testId="inspector-commands">
          <SteerCommandList />
        </Section>
      )}

      <Section title="Run" aside={tree.status}>
        <dl className={styles.facts}>
          <div className={styles.fact}>
            <dt>task</dt>
            <dd>
              {task}
              {task !== tree.taskId && <code className={styles.muted}>{tree.taskId}</code>}
            </dd>
          </div>
          <div className={styles.fact}>
            <dt>model</dt>
            <dd>
              <code>{tree.modelId}</code>
              {record?.seed !== null && record?.seed !== undefined && (
                <span className={styles.muted}> · seed {record.seed}</span>
              )}
            </dd>
          </div>
          {record?.importTag && <ImportedFact tag={record.importTag} />}
          <div className={styles.fact}>
            <dt>agent</dt>
            <dd>{(tree.external ? clientName(tree.agentName) : tree.agentName) || '—'}</dd>
          </div>
          <div className={styles.fact}>
            <dt>run id</dt>
            <dd>
              <code className={styles.small}>{runId}</code>
            </dd>
          </div>
          <div className={styles.fact}>
            <dt>started</dt>
            <dd>{tree.startedAt !== null ? formatClock(tree.startedAt) : '—'}</dd>
          </div>
          {duration !== null && (
            <div className={styles.fact}>
              <dt>took</dt>
              <dd>{formatDuration(duration)}</dd>
            </div>
          )}
        </dl>
      </Section>

      <Section title="Search">
        <dl className={styles.statGrid}>
          <Stat label="explored" value={`${stats.exploredNodes} / ${stats.totalNodes}`} />
          <Stat label="max depth" value={stats.maxDepthReached} />
          <Stat label="dropped by score" value={stats.prunedNodes} />
          <Stat label="pruned by people" value={stats.steeredPrunes} />
          {tree.external && <Stat label="pruned by the search" value={stats.searchPrunes} />}
          <Stat label="backtracks" value={stats.backtrackCount} />
          <Stat label="model calls" value={`${stats.modelCalls} (${stats.llmCalls} own)`} />
          {/* HTTP attempts a backend made again (a 429, a 5xx); absent from stats stored before retries were counted */}
          {(stats.retries ?? 0) > 0 && (
            <Stat label="retried attempts" value={stats.retries} testId="inspector-retries" />
          )}
          <Stat
            label="tokens in / out"
            value={`${formatTokens(stats.tokenUsage.inputTokens)} / ${formatTokens(stats.tokenUsage.outputTokens)}`}
          />
          <Stat label="cost" value={formatSpend(stats)} />
        </dl>
      </Section>

      <ConfigSection tree={tree} />
    </>
  );
}

/** A finished run's outcome: success and verification, its output (a code run's change and patch), why it ended. */
function OutcomeSection({ runId, tree }: { runId: string; tree: ThoughtTree }) {
  const selectNode = useRunStore((s) => s.select);
  const codeOutput = tree.taskId === 'code' && tree.output !== null && parseCodeOutput(tree.output) !== null;
  return (
    <Section title="Outcome" testId="inspector-outcome">
      <div className={styles.outcomeTags}>
        <span className={`badge ${tree.success ? 'st-completed' : 'st-failed'}`}>
          {tree.success ? 'success' : 'no success'}
        </span>
        {tree.verified !== null && (
          <span className={`badge ${tree.verified ? 'st-verified' : 'st-failed'}`} data-testid="inspector-verified">
            {tree.verified ? 'verified' : 'not verified'}
          </span>
        )}
      </div>
      {codeOutput ? (
        // a code run's public output: the change in words and its patch, apart from the tree and scratchpad
        <PublicOutput runId={runId} output={tree.output ?? ''} />
      ) : (
        <TextBox text={tree.output ?? ''} label="output" />
      )}
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>finished</dt>
          <dd>
            {tree.finishReason ? finishReasonText(tree.finishReason, tree.external !== null) : '—'}
            {tree.finishDetail && <span className={styles.muted}> ({tree.finishDetail})</span>}
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>answer from</dt>
          <dd>{tree.answerSource ? ANSWER_SOURCES[tree.answerSource] : '—'}</dd>
        </div>
        {tree.bestNodeId && (
          <div className={styles.fact}>
            <dt>best node</dt>
            <dd>
              <button
                type="button"
                className={styles.linkButton}
                data-testid="inspector-best"
                onClick={() => selectNode(tree.bestNodeId)}
              >
                {tree.bestNodeId}
              </button>
            </dd>
          </div>
        )}
      </dl>
    </Section>
  );
}

/** The run's config: the engine's settings, or a search Arborist does not run's own, as it gave them. */
function ConfigSection({ tree }: { tree: ThoughtTree }) {
  return tree.external ? (
    <>
      <Section
        title="Config"
        aside={`${clientName(tree.agentName) ?? 'the client'}’s own`}
        testId="inspector-external-config"
      >
        {Object.keys(tree.external.config).length === 0 ? (
          <p className={styles.muted}>The search gave no config.</p>
        ) : (
          <dl className={styles.configGrid}>
            {Object.entries(tree.external.config).map(([key, value]) => (
              <div key={key} className={styles.configRow} data-key={key}>
                <dt>{key}</dt>
                <dd>{jsonText(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </Section>
    </>
  ) : (
    <EngineConfig tree={tree} />
  );
}

/** The engine's settings; an MCTS run's own after the strategy (and no beam width: MCTS does not use it). */
function EngineConfig({ tree }: { tree: ThoughtTree }) {
  const mcts = mctsSettingFacts(tree);
  const rows = mcts ? CONFIG_ROWS.filter((row) => row.key !== 'beamWidth') : CONFIG_ROWS;
  return (
    <Section title="Config" testId="inspector-config">
      <dl className={styles.configGrid}>
        {rows.map(({ key, label }) => (
          <Fragment key={key}>
            <div className={styles.configRow} data-key={key}>
              <dt>{label}</dt>
              <dd>{configValue(tree.config, key)}</dd>
            </div>
            {key === 'explorationStrategy' &&
              mcts?.map((fact) => (
                <div key={fact.key} className={styles.configRow} data-key={fact.key} title={fact.title}>
                  <dt>{fact.label}</dt>
                  <dd>{fact.value}</dd>
                </div>
              ))}
          </Fragment>
        ))}
      </dl>
    </Section>
  );
}

/** Says the run was imported, and from what (its import tag, read back by the one definition of its format). */
function ImportedFact({ tag }: { tag: string }) {
  const origin = describeImportTag(tag);
  return (
    <div className={styles.fact} data-testid="inspector-imported" data-kind={origin.kind} title={tag}>
      <dt>imported</dt>
      <dd>
        from {origin.what} <b>{origin.source}</b>
        {origin.at && <span className={styles.muted}> · {origin.at}</span>}
      </dd>
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className={styles.stat} data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
