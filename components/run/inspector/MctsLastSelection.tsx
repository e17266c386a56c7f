'use client';
// The inspector's "Last selection" for a node of an engine Monte Carlo tree search (issue 31): the last mcts.selected
// at or before the step on screen that listed the node among a parent's candidates, with its Q, exploration term,
// UCT = Q + explore, N(parent), visits and prior, whether it was chosen and why, and the hop's candidates briefly
// (N, Q, UCT, the chosen one marked). Numbers as text. Not responsible for finding the selection (lib/event-log).
import type { MctsCandidate } from '@/lib/contract/vocabulary';
import { formatQ } from '@/lib/layout/index';
import type { MctsSelectionView } from '@/lib/event-log/index';
import { Section } from './sections';
import { fact, IdButton, LoadingNote, num } from './MctsParts';
import styles from './Inspector.module.css';
import trail from './MctsTrail.module.css';

export function LastSelection({ selection, loading }: { selection: MctsSelectionView | null; loading: boolean }) {
  if (!selection) {
    return (
      <Section title="Last selection" testId="inspector-mcts-selection">
        <p className={styles.muted}>No selection has weighed this node yet at this step.</p>
        <LoadingNote loading={loading} />
      </Section>
    );
  }
  const { candidate: c, chosen } = selection;
  return (
    <Section title="Last selection" aside={`iteration ${selection.iteration}`} testId="inspector-mcts-selection">
      <p className={trail.verdict} data-testid="inspector-mcts-chosen" data-chosen={chosen}>
        {verdict(selection)}
      </p>
      <p className={trail.when}>
        As the selection saw them when iteration {selection.iteration} began (#{selection.seq}):
      </p>
      <dl className={styles.facts}>
        {fact('Q', num(c.q), 'inspector-mcts-sel-q', c.q === null ? 'no value backed up yet' : String(c.q))}
        {fact(
          'explore',
          num(c.explore),
          'inspector-mcts-sel-explore',
          c.explore === null ? 'unvisited: no exploration term' : `c · sqrt(ln N(parent) / N) = ${c.explore}`,
        )}
        {fact(
          'UCT',
          c.uct === null ? 'unvisited: first' : `${num(c.q ?? 0)} + ${num(c.explore)} = ${num(c.uct)}`,
          'inspector-mcts-sel-uct',
          c.uct === null ? 'an unvisited child is tried before any visited one' : `UCT = Q + explore = ${c.uct}`,
        )}
        {fact('N (parent)', String(selection.parentVisits), 'inspector-mcts-sel-parent-n')}
        {fact('N (visits)', String(c.visits), 'inspector-mcts-sel-n')}
        {fact('prior', formatQ(c.prior), 'inspector-mcts-sel-prior', `the composite score: ${c.prior}`)}
      </dl>
      <CandidateTable selection={selection} />
      <LoadingNote loading={loading} />
    </Section>
  );
}

/** "Chosen over n2, n5" / "Not chosen: n2 was" in words, with the reason (an unvisited child goes first). */
function verdict({ candidate, chosen, chosenId, siblings }: MctsSelectionView): string {
  if (siblings.length === 0) return 'Chosen: the only candidate.';
  const others = siblings.map((s) => s.nodeId).join(', ');
  if (chosen) {
    return candidate.uct === null
      ? `Chosen over ${others}: unvisited, so tried first.`
      : `Chosen over ${others}: the highest UCT.`;
  }
  const winner = siblings.find((s) => s.nodeId === chosenId);
  const why = winner?.uct === null ? 'unvisited, so tried first' : `UCT ${num(winner?.uct ?? null)}`;
  return `Not chosen: ${chosenId} was (${why}).`;
}

/** The hop's candidates, briefly: each one's N, Q and UCT, the chosen one marked, this node highlighted. */
function CandidateTable({ selection }: { selection: MctsSelectionView }) {
  // in the rule's order: unvisited first (by prior), then by UCT
  const all: MctsCandidate[] = [selection.candidate, ...selection.siblings].sort((a, b) =>
    a.uct === null || b.uct === null
      ? Number(a.uct !== null) - Number(b.uct !== null) || b.prior - a.prior
      : b.uct - a.uct,
  );
  return (
    <table className={trail.table} data-testid="inspector-mcts-candidates">
      <caption className={trail.caption}>
        the candidates under <IdButton nodeId={selection.parentId} />
      </caption>
      <thead>
        <tr>
          <th scope="col">node</th>
          <th scope="col">N</th>
          <th scope="col">Q</th>
          <th scope="col">UCT</th>
          <th scope="col">
            <span className="visually-hidden">chosen</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {all.map((c) => (
          <tr
            key={c.nodeId}
            className={c.nodeId === selection.candidate.nodeId ? trail.self : undefined}
            data-node-id={c.nodeId}
          >
            <td>
              <IdButton nodeId={c.nodeId} />
            </td>
            <td>{c.visits}</td>
            <td>{num(c.q)}</td>
            <td>{c.uct === null ? 'first' : num(c.uct)}</td>
            <td>{c.nodeId === selection.chosenId ? <span className={trail.chosen}>chosen</span> : null}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
