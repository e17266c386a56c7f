'use client';
// The timeline's MCTS iteration stepper (issue 31), shown for a Monte Carlo tree search only: back to the previous
// iteration's end, the iteration on screen (begun / budget, and whether it is under way: selected, not yet backed up),
// forward to the next iteration's end ({ and } do the same). An iteration's end is its mcts.backpropagated, so every
// part of the page shows that iteration's N and Q backed up; the step is an ordinary seq, so ?step= links work as ever.
// Not responsible for where the ends are (lib/store MomentIndex) nor for seeking (the Timeline's `go`).
import { mctsSettings } from '@/lib/engine/index';
import type { MomentIndex } from '@/lib/store/index';
import { useRunStore } from '../page/RunStoreContext';
import styles from './Timeline.module.css';

/** Whether the run is a Monte Carlo tree search: the tree on screen says so, or the log has an iteration's end. */
export function useIsMcts(moments: MomentIndex): boolean {
  const onScreen = useRunStore((s) => s.tree.config.explorationStrategy === 'mcts');
  return onScreen || moments.countUpTo('iteration', Infinity) > 0;
}

export function IterationControls({
  target,
  go,
}: {
  target: (direction: 1 | -1) => number | null;
  go: (seq: number) => void;
}) {
  const begun = useRunStore((s) => s.tree.mcts?.iterations ?? 0);
  const underWay = useRunStore((s) => (s.tree.mcts?.current ?? null) !== null);
  // the budget is the run's config, known once run.started is on screen
  const budget = useRunStore((s) =>
    s.tree.config.explorationStrategy === 'mcts' ? mctsSettings(s.tree.config).mctsIterations : null,
  );
  const back = target(-1);
  const forward = target(1);
  return (
    <span className={styles.iterations} data-testid="timeline-iterations">
      <button
        className="btn btn-sm"
        onClick={() => back !== null && go(back)}
        disabled={back === null}
        title="Back to the end of the previous MCTS iteration ({)"
        aria-label="Previous MCTS iteration"
        data-testid="iteration-back"
      >
        ◀
      </button>
      <span
        className={styles.iteration}
        data-testid="timeline-iteration"
        data-iteration={begun}
        data-under-way={underWay || undefined}
        title={
          (underWay
            ? `MCTS iteration ${begun} is under way at this step: selected, not yet backed up`
            : `MCTS iterations backed up by this step: ${begun}`) + (budget !== null ? ` (budget ${budget})` : '')
        }
      >
        <abbr title="MCTS iteration">it.</abbr> <b>{begun}</b>
        {budget !== null && `/${budget}`}
        {underWay && <span className={styles.underWay}> …</span>}
      </span>
      <button
        className="btn btn-sm"
        onClick={() => forward !== null && go(forward)}
        disabled={forward === null}
        title="Forward to the end of the next MCTS iteration (})"
        aria-label="Next MCTS iteration"
        data-testid="iteration-forward"
      >
        ▶
      </button>
    </span>
  );
}
