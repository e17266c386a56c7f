'use client';
// What a search Arborist does not run says about a node beyond the engine's fields: its named scores (any names, each
// on its own scale) and its free-form metadata (scalars as text, other JSON pretty-printed, long values folded). All
// of it comes from another program: rendered as text, never as HTML. Renders nothing for a node that has neither (the
// engine's own nodes). Not responsible for the engine's score bars (sections.tsx), MCTS statistics (their own
// section) nor the search's own prune (NodeDetails' pruned box says who pruned it and why).
import type { ThoughtNode } from '@/lib/engine/index';
import { MCTS_SECTION_KEYS } from '@/lib/layout/index';
import { metadataRows, scoreRows } from '@/lib/store/index';
import { Section, TextBox } from './sections';
import own from './NodeAnnotations.module.css';

export function NodeAnnotations({ node }: { node: ThoughtNode }) {
  // a node with MCTS statistics shows its reward and selected edge in the MCTS section: not twice
  const mcts = node.mcts !== null;
  const scores = scoreRows(node.scores).filter((row) => !(mcts && row.name === MCTS_SECTION_KEYS.score));
  const metadata = metadataRows(node.metadata).filter((row) => !(mcts && row.key === MCTS_SECTION_KEYS.metadata));
  if (scores.length === 0 && metadata.length === 0) return null;
  return (
    <>
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
