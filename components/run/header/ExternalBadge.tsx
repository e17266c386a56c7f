'use client';
// The run header's mark for a search Arborist does not run (run.started's `external`): "external", with the
// program's name when it gave one ("external: py-tot"; lib/contract/steering.ts externalTag), and in its title which
// commands its client takes. Renders nothing for Arborist's own runs.
// Not responsible for the steering controls' reasons (useSteering.ts) nor for the search's config (RunDetails).
import { externalTag } from '@/lib/contract/steering';
import { useRunStore } from '../page/RunStoreContext';
import styles from './ExternalBadge.module.css';

export function ExternalBadge() {
  const external = useRunStore((s) => s.tree.external);
  const agentName = useRunStore((s) => s.tree.agentName);
  if (!external) return null;
  const tag = externalTag(agentName);
  const takes = external.commands.length > 0 ? `takes ${external.commands.join(', ')}` : 'takes no commands';
  const title = `A search Arborist does not run: ${tag.agent ?? 'a client'} sends it in and ${takes}`;
  return (
    <span className={`badge st-running ${styles.external}`} data-testid="run-external" title={title}>
      {tag.agent ? (
        <>
          external: <span className={styles.agent}>{tag.agent}</span>
        </>
      ) : (
        'external'
      )}
    </span>
  );
}
