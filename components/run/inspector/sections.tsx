'use client';
// The inspector's sections shared by branch nodes and the root: scores, dropped candidates, times, usage, family,
// model calls (their waterfall first: CallWaterfall.tsx), and the scrollable copyable text box long texts go in. Each reads the smallest slice it needs:
// a node's events by seq (events never change once applied), other nodes one by one.
// Not responsible for the node's head and commands (NodeDetails) or the run's own facts (RunDetails).
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BranchScore } from '@/lib/contract/vocabulary';
import type { ThoughtNode } from '@/lib/engine/index';
import { formatCost, formatDuration, formatSpend, formatTokens } from '@/lib/contract/format';
import { displayStatus, firstLine, formatScore, scoreFigure, STATUS_LABELS, statusLabel } from '@/lib/layout/index';
import { useTRPC } from '@/lib/trpc/index';
import { useRunAccess } from '../page/RunAccess';
import { useRunStore } from '../page/RunStoreContext';
import { formatOffset } from '@/lib/event-log/index';
import { callTotals, formatClock, messagesAsText, modelCallsOf, type ModelCallEvent } from '@/lib/event-log/index';
import { CallWaterfall } from './CallWaterfall';
import styles from './Inspector.module.css';

export function Section({
  title,
  aside,
  children,
  testId,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className={styles.section} data-testid={testId}>
      <h3 className={styles.sectionTitle}>
        <span>{title}</span>
        {aside !== undefined && <span className={styles.sectionAside}>{aside}</span>}
      </h3>
      {children}
    </section>
  );
}

/** Copies text: the Clipboard API where the page may use it (https or localhost), else a hidden text area. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused: try the old way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

function CopyButton({
  text,
  label,
  className,
  idle,
}: {
  text: string;
  label: string;
  className?: string;
  idle: string;
}) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    setCopied((await copyText(text)) ? 'yes' : 'no');
    setTimeout(() => setCopied(null), 1500);
  };
  return (
    <button type="button" className={className} onClick={() => void copy()} aria-label={label} title={label}>
      {copied === 'yes' ? 'copied' : copied === 'no' ? 'copy failed' : idle}
    </button>
  );
}

/** Long text (prompts, responses, JSON), pre-wrapped in a scroll box of bounded height, with a copy button. */
export function TextBox({ text, label, mono = false }: { text: string; label: string; mono?: boolean }) {
  return (
    <div className={styles.textBox}>
      <pre className={mono ? styles.textMono : styles.text}>{text || ' '}</pre>
      <CopyButton text={text} label={`Copy the ${label}`} className={styles.copy} idle="copy" />
    </div>
  );
}

const SCORE_PARTS = [
  { key: 'confidence', label: 'confidence', weight: 'confidenceWeight' },
  { key: 'progress', label: 'progress', weight: 'progressWeight' },
  { key: 'novelty', label: 'novelty', weight: 'noveltyWeight' },
] as const;

export function ScoreBars({ score, cumulative }: { score: BranchScore; cumulative: number }) {
  const config = useRunStore((s) => s.tree.config);
  // a search Arborist does not run has no weights or thresholds of ours: its config is only the engine's defaults
  const external = useRunStore((s) => s.tree.external !== null);
  if (score.logValue) return <LogValueScore score={score} logValue={score.logValue} />;
  // parts nothing measured (a foreign search's single score) are left out, not drawn as zeros
  const parts = SCORE_PARTS.filter((part) => score[part.key] !== null);
  return (
    <Section
      title="Score"
      aside={
        <>
          {score.fallback && (
            <span className={styles.fallbackTag} title="The evaluator's answer could not be parsed">
              fallback score
            </span>
          )}
          <span>path total {formatScore(cumulative)}</span>
        </>
      }
      testId="inspector-score"
    >
      <div className={styles.bars}>
        {parts.map((part) => (
          <Bar
            key={part.key}
            label={part.label}
            hint={external ? undefined : `× ${formatScore(config[part.weight])}`}
            value={score[part.key] ?? 0}
            mark={part.key === 'confidence' && !external ? config.terminationConfidence : undefined}
            markLabel="stops the search"
          />
        ))}
        <Bar
          label={parts.length ? 'composite' : 'score'}
          value={score.composite}
          strong
          mark={external ? undefined : config.confidenceThreshold}
          markLabel="threshold to keep"
        />
      </div>
      {score.reasoning && <p className={styles.reasoning}>{score.reasoning}</p>}
    </Section>
  );
}

/**
 * A score an imported log gave (score.logValue): its own value on its own scale, with the words it sums. No
 * confidence, progress or novelty is shown: nothing measured them. Nor a path total: that sum is ours, not the log's.
 */
function LogValueScore({ score, logValue }: { score: BranchScore; logValue: { value: number; max: number } }) {
  const shown = String(Math.round(logValue.value * 1000) / 1000);
  return (
    <Section
      title="Score"
      aside={
        <span className={styles.logTag} title="Read from the imported search log; not scored by Arborist">
          the log’s own value
        </span>
      }
      testId="inspector-score"
    >
      <div className={styles.bars}>
        <Bar label="value" hint={`of ${logValue.max}`} value={logValue.value / logValue.max} text={shown} strong wide />
      </div>
      <p className={styles.reasoning} data-testid="inspector-log-value">
        {score.reasoning || `value ${shown}`}
      </p>
      <p className={styles.muted}>
        The search log’s own value for this candidate, on its scale of 0 to {logValue.max}; Arborist did not score it,
        so it has no confidence, progress or novelty.
      </p>
    </Section>
  );
}

function Bar({
  label,
  hint,
  value,
  strong = false,
  mark,
  markLabel,
  text,
  wide = false,
}: {
  label: string;
  hint?: string;
  value: number;
  /** The figure shown beside the bar; default the value itself. */
  text?: string;
  /** Room for a longer figure than 0..1 with two decimals. */
  wide?: boolean;
  strong?: boolean;
  mark?: number;
  markLabel?: string;
}) {
  const pct = (v: number) => `${Math.round(Math.max(0, Math.min(1, v)) * 100)}%`;
  return (
    <div className={`${strong ? styles.barRowStrong : styles.barRow}${wide ? ` ${styles.barRowWide}` : ''}`}>
      <span className={styles.barLabel}>
        {label}
        {hint && <span className={styles.barHint}> {hint}</span>}
      </span>
      <span className={styles.barTrack} role="img" aria-label={`${label} ${text ?? formatScore(value)}`}>
        <span className={styles.barFill} style={{ width: pct(value) }} />
        {mark !== undefined && (
          <span
            className={styles.barMark}
            style={{ left: pct(mark) }}
            title={`${markLabel ?? ''} ${formatScore(mark)}`}
          />
        )}
      </span>
      <span className={styles.barValue}>{text ?? formatScore(value)}</span>
    </div>
  );
}

/** Candidates this node's expansions dropped below the threshold: never nodes, "pruned by score". */
export function Dropped({ node }: { node: ThoughtNode }) {
  if (node.dropped.length === 0) return null;
  return (
    <Section title="Dropped candidates" aside={`${node.dropped.length} · pruned by score`} testId="inspector-dropped">
      <ul className={styles.dropped}>
        {node.dropped.map((d) => (
          <li key={d.seq} className={styles.droppedItem}>
            <div className={styles.droppedTop}>
              <span className="badge st-dropped">{STATUS_LABELS.dropped}</span>
              <span className={styles.droppedScore}>{scoreFigure(d.score)}</span>
              {d.score.fallback && <span className={styles.fallbackTag}>fallback score</span>}
            </div>
            <p className={styles.prose}>{d.branch.thought}</p>
            <p className={styles.droppedReason}>{d.reason}</p>
            {d.score.reasoning && <p className={styles.reasoning}>{d.score.reasoning}</p>}
          </li>
        ))}
      </ul>
    </Section>
  );
}

function useEventTs(seq: number | null): number | null {
  return useRunStore((s) => (seq === null ? null : (s.events[seq - 1]?.ts ?? null)));
}

export function Timing({ node }: { node: ThoughtNode }) {
  const runStart = useRunStore((s) => s.tree.startedAt);
  const created = useEventTs(node.createdSeq);
  const started = useEventTs(node.startedSeq);
  const finished = useEventTs(node.finishedSeq);
  const all: [string, number | null, number | null][] = [
    ['created', node.createdSeq, created],
    ['started', node.startedSeq, started],
    ['finished', node.finishedSeq, finished],
  ];
  // the root is the goal: it is never run, so it has a creation time, and a start once it is first expanded
  const rows = node.parentId === null ? all.filter(([, seq]) => seq !== null) : all;
  return (
    <Section
      title="Times"
      aside={started !== null && finished !== null ? `ran ${formatDuration(finished - started)}` : undefined}
    >
      <dl className={styles.facts}>
        {rows.map(([label, seq, ts]) => (
          <div key={label} className={styles.fact}>
            <dt>{label}</dt>
            <dd>
              {ts === null || seq === null ? (
                <span className={styles.muted}>—</span>
              ) : (
                <>
                  <span className={styles.num}>{runStart !== null ? formatOffset(ts - runStart) : ''}</span>
                  <span className={styles.muted}>
                    {formatClock(ts)} · #{seq}
                  </span>
                </>
              )}
            </dd>
          </div>
        ))}
        {node.expansions > 0 && (
          <div className={styles.fact}>
            <dt>expanded</dt>
            <dd>
              <span className={styles.num}>{node.expansions}×</span>
            </dd>
          </div>
        )}
      </dl>
    </Section>
  );
}

export function Usage({ node }: { node: ThoughtNode }) {
  const calls = node.modelCallSeqs.length;
  if (calls === 0) return null;
  return (
    <Section title="Usage" aside={`${calls} model call${calls === 1 ? '' : 's'}`} testId="inspector-usage">
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>tokens in</dt>
          <dd className={styles.num}>{formatTokens(node.usage.inputTokens)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>tokens out</dt>
          <dd className={styles.num}>{formatTokens(node.usage.outputTokens)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>cost</dt>
          <dd className={styles.num}>{formatSpend(node.usage)}</dd>
        </div>
      </dl>
    </Section>
  );
}

export function Family({ node }: { node: ThoughtNode }) {
  if (node.parentId === null && node.childIds.length === 0) return null;
  return (
    <Section title="Family" aside={`${node.childIds.length} child${node.childIds.length === 1 ? '' : 'ren'}`}>
      <div className={styles.family}>
        {node.parentId !== null && (
          <>
            <span className={styles.familyLabel}>parent</span>
            <NodeLink nodeId={node.parentId} testId="inspector-parent" />
          </>
        )}
        {node.childIds.length > 0 && (
          <>
            <span className={styles.familyLabel}>children</span>
            <div className={styles.familyList}>
              {node.childIds.map((id) => (
                <NodeLink key={id} nodeId={id} testId="inspector-child" />
              ))}
            </div>
          </>
        )}
      </div>
    </Section>
  );
}

/** A button that selects another node: its status colour, id, score and first line. Reads that node alone. */
export function NodeLink({ nodeId, testId }: { nodeId: string; testId: string }) {
  const node = useRunStore((s) => s.tree.nodes[nodeId]);
  const goal = useRunStore((s) => (node?.parentId === null ? s.tree.goal : null));
  const selectNode = useRunStore((s) => s.select);
  if (!node) return null;
  const status = displayStatus(node);
  const text = node.parentId === null ? (goal ?? '') : (node.branch?.thought ?? '');
  return (
    <button
      type="button"
      className={styles.nodeLink}
      onClick={() => selectNode(nodeId)}
      data-testid={testId}
      data-node-id={nodeId}
      title={`${node.id}: ${statusLabel(node)}`}
    >
      <span className={styles.dot} data-status={status} aria-hidden="true" />
      <span className={styles.nodeLinkId}>{node.id}</span>
      <span className={styles.nodeLinkText}>{firstLine(text, 80) || '(empty)'}</span>
      {node.score && <span className={styles.nodeLinkScore}>{scoreFigure(node.score)}</span>}
    </button>
  );
}

export function ModelCalls({ node }: { node: ThoughtNode }) {
  // the events are immutable once applied: a shallow compare keeps this stable until a call is added
  const calls = useRunStore(useShallow((s) => modelCallsOf(s.events, node.modelCallSeqs)));
  if (node.modelCallSeqs.length === 0) return null;
  const totals = callTotals(calls);
  // a long run's history arrives after its tree: calls not in the store yet are counted, not invented
  const missing = node.modelCallSeqs.length - calls.length;
  return (
    <Section
      title="Model calls"
      // the calls' own times added up: calls run together, so this is not how long they took (the waterfall says)
      aside={`${node.modelCallSeqs.length}${totals.errors ? ` · ${totals.errors} failed` : ''} · ${formatDuration(totals.latencyMs)} summed${missing > 0 ? ' so far' : ''}`}
      testId="inspector-model-calls"
    >
      <CallWaterfall calls={calls} />
      <div className={styles.calls}>
        {calls.map((call) => (
          <ModelCallItem key={call.seq} call={call} />
        ))}
        {missing > 0 && (
          <p className={styles.muted} data-testid="inspector-calls-loading">
            {missing} more: loading history…
          </p>
        )}
      </div>
    </Section>
  );
}

function ModelCallItem({ call }: { call: ModelCallEvent }) {
  const [open, setOpen] = useState(false);
  const p = call.payload;
  return (
    <details
      className={styles.call}
      data-testid="inspector-model-call"
      data-seq={call.seq}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className={styles.callSummary}>
        <span className={styles.callPurpose}>{p.purpose}</span>
        {p.error !== null && <span className={styles.callError}>error</span>}
        <span className={styles.callMeta}>
          {formatDuration(p.latencyMs)} · {formatTokens(p.usage.inputTokens)}→{formatTokens(p.usage.outputTokens)} tok ·{' '}
          {p.cost === null ? 'unpriced' : formatCost(p.cost)}
        </span>
        <span className={styles.callSeq}>#{call.seq}</span>
      </summary>
      {open && <ModelCallBody call={call} />}
    </details>
  );
}

/** An opened call: its prompt comes with the whole event, fetched now when the history held it light. */
function ModelCallBody({ call }: { call: ModelCallEvent }) {
  const trpc = useTRPC();
  const runId = useRunStore((s) => s.runId);
  const light = call.payload.messages.length === 0;
  // a share link may leave the prompts out: the server sends none, and the page says so rather than asking
  const { readPrompts } = useRunAccess();
  const whole = useQuery({
    ...trpc.run.event.queryOptions({ id: runId, seq: call.seq }),
    enabled: light && readPrompts,
  });
  const fetched = whole.data?.type === 'model.called' ? whole.data : null;
  const p = (fetched ?? call).payload;
  return (
    <div className={styles.callBody}>
      <p className={styles.callFacts}>
        <span>
          model <code>{p.modelId}</code>
        </span>
        <span>
          tokens {formatTokens(p.usage.inputTokens)} in / {formatTokens(p.usage.outputTokens)} out
        </span>
      </p>
      {!readPrompts ? (
        <p className={styles.muted} data-testid="inspector-prompt-withheld">
          The prompt is not shown: prompts were not shared with this link.
        </p>
      ) : light && !fetched ? (
        <p className={styles.muted} data-testid="inspector-prompt-loading">
          {whole.isError ? 'The prompt could not be loaded.' : 'Loading the prompt…'}
        </p>
      ) : (
        <>
          <div className={styles.callPart}>
            <span className={styles.callPartTitle}>
              Prompt · {p.messages.length} message{p.messages.length === 1 ? '' : 's'}
            </span>
            {p.messages.length > 1 && (
              <CopyButton
                text={messagesAsText(p.messages)}
                label="Copy the whole prompt"
                className={styles.copyInline}
                idle="copy all"
              />
            )}
          </div>
          {p.messages.map((m, i) => (
            <div key={i} className={styles.message}>
              <span className={`${styles.role} ${styles[`role_${m.role}`] ?? ''}`}>{m.role}</span>
              <TextBox text={m.content} label={`${m.role} message`} />
            </div>
          ))}
        </>
      )}
      {p.error !== null ? (
        <div className={styles.failureBox}>
          <span className={styles.boxTitle}>Error</span>
          <p className={styles.prose}>{p.error}</p>
        </div>
      ) : (
        <>
          <div className={styles.callPart}>
            <span className={styles.callPartTitle}>Response</span>
          </div>
          <TextBox text={p.response ?? ''} label="response" />
        </>
      )}
    </div>
  );
}
