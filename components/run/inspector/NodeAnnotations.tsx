'use client';
// What a search Arborist does not run says about a node beyond the engine's fields: why the search itself pruned it
// ("pruned by the search: ..."), its named scores (any names, each on its own scale) and its free-form metadata
// (scalars as text, other JSON pretty-printed, long values folded). All of it comes from another program: rendered as
// text, never as HTML. Renders nothing for a node that has none of these (the engine's own nodes).
// Not responsible for the engine's score bars (sections.tsx) nor for MCTS statistics (their own section).
import type { ThoughtNode } from '@/lib/engine/index';
import { metadataRows, scoreRows } from '@/lib/store/index';
import { Section, TextBox } from './sections';
import styles from './Inspector.module.css';
import own from './NodeAnnotations.module.css';

export function NodeAnnotations({ node }: { node: ThoughtNode }) {
  const scores = scoreRows(node.scores);
  const metadata = metadataRows(node.metadata);
  const searchPruned = node.status === 'pruned' && node.pruneReason !== null;
  if (!searchPruned && scores.length === 0 && metadata.length === 0) return null;
  return (
    <>
      {searchPruned && (
        <div className={styles.prunedBox} data-testid="inspector-search-pruned">
          <b>Pruned by the search</b>, with its subtree
          <p className={own.reason}>{node.pruneReason}</p>
        </div>
      )}
      {scores.length > 0 && (
        <Section title="Scores" aside="from the search" testId="inspector-named-scores">
          <dl className={own.scores}>
            {scores.map((row) => (
              <div key={row.name} className={own.score} data-score={row.name}>
                <dt>{row.name}</dt>
                <dd title={String(row.value)}>{row.text}</dd>
              </div>
            ))}
          </dl>
        </Section>
      )}
      {metadata.length > 0 && (
        <Section
          title="Metadata"
          aside={`${metadata.length} key${metadata.length === 1 ? '' : 's'}`}
          testId="inspector-metadata"
        >
          <dl className={own.metadata}>
            {metadata.map((row) => (
              <div key={row.key} className={own.row} data-key={row.key}>
                <dt>{row.key}</dt>
                <dd className={row.structured ? own.mono : undefined}>
                  {row.long ? (
                    <details className={own.fold}>
                      <summary>{row.summary}</summary>
                      <TextBox text={row.text} label={row.key} mono={row.structured} />
                    </details>
                  ) : (
                    row.text
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </Section>
      )}
    </>
  );
}
