/**
 * The compare page's table: what each run is and what it cost, one row per fact, the same words for either side
 * (model, status, strategy (a search Arborist does not run: its own config; an MCTS run: its iterations, c, rollout and
 * rules in place of the beam width it does not use), nodes, depth, backtracks, calls, tokens, cost, duration, verified, output).
 * Pure; durations and costs read as everywhere else (lib/contract/format.ts: a model with no price is "unpriced").
 * Not responsible for the diff of the two trees (diff.ts) or for drawing the table (components/compare).
 */
import { formatDuration, formatSpend, formatTokens } from '../contract/format';
import { externalTag } from '../contract/steering';
import { mctsSettings, type ThoughtTree, type ToTConfig } from '../engine/index';
import { configSummary } from '../store/index';

/** The engine's search as the strategy row says it: the shape, then what only the strategy reads. */
function searchText(config: ToTConfig): string {
  const shape = `${config.explorationStrategy} · depth ${config.maxDepth} · b${config.branchFactor}`;
  if (config.explorationStrategy !== 'mcts') return `${shape} · w${config.beamWidth}`;
  const m = mctsSettings(config);
  return (
    `${shape} · ${m.mctsIterations} iterations · c ${Number(m.mctsExploration.toFixed(3))}` +
    ` · rollout ${m.mctsRolloutDepth} · Q ${m.mctsBackup} · best by ${m.mctsBestBy}`
  );
}

export interface RunFact {
  label: string;
  value(tree: ThoughtTree): string;
}

export const RUN_FACTS: readonly RunFact[] = [
  { label: 'model', value: (t) => t.modelId || '—' },
  { label: 'status', value: (t) => `${t.status}${t.finishReason ? ` (${t.finishReason})` : ''}` },
  {
    label: 'strategy',
    // a search Arborist does not run has its own config; the engine's stored with its run is only the defaults
    value: (t) =>
      t.external ? `${externalTag(t.agentName).text} · ${configSummary(t.external.config)}` : searchText(t.config),
  },
  { label: 'nodes explored / created', value: (t) => `${t.stats.exploredNodes} / ${t.stats.totalNodes}` },
  { label: 'depth reached', value: (t) => String(t.stats.maxDepthReached) },
  { label: 'backtracks', value: (t) => String(t.stats.backtrackCount) },
  { label: 'model calls (executor / all)', value: (t) => `${t.stats.llmCalls} / ${t.stats.modelCalls}` },
  { label: 'tokens', value: (t) => formatTokens(t.stats.tokenUsage.totalTokens) },
  { label: 'cost', value: (t) => formatSpend(t.stats) },
  {
    label: 'duration',
    value: (t) => (t.startedAt !== null && t.finishedAt !== null ? formatDuration(t.finishedAt - t.startedAt) : '—'),
  },
  { label: 'verified answer', value: (t) => (t.verified === null ? '—' : t.verified ? '✓ yes' : 'no') },
  { label: 'output', value: (t) => t.output ?? '—' },
];

/** "1 node (the goal)" or "12 nodes": how much of a run the other shares. */
export function sharedText(count: number): string {
  return count === 1 ? '1 node (the goal)' : `${count} nodes`;
}
