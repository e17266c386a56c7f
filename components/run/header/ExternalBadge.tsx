'use client';
// The run header's mark for a search Arborist does not run (run.started's `external`): "external: <agent>", and in
// its title which commands its client takes. Renders nothing for Arborist's own runs.
// Not responsible for the steering controls' reasons (useSteering.ts) nor for the search's config (RunDetails).
import { useRunStore } from '../page/RunStoreContext';
import styles from './ExternalBadge.module.css';

export function ExternalBadge() {
  const external = useRunStore((s) => s.tree.external);
  const agent = useRunStore((s) => s.tree.agentName.trim());
  if (!external) return null;
  const takes = external.commands.length > 0 ? `takes ${external.commands.join(', ')}` : 'takes no commands';
  const title = `A search Arborist does not run: ${agent || 'a client'} sends it in and ${takes}`;
  return (
    <span className={`badge st-running ${styles.external}`} data-testid="run-external" title={title}>
      external: <span className={styles.agent}>{agent || 'client'}</span>
    </span>
  );
}
