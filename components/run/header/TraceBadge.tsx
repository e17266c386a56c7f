'use client';
// The run header's mark for a run made from an OpenTelemetry trace: its trace id (the whole id, cut to fit, whole in
// the title), which a person pastes into their tracing tool or the runs list's search; a click copies it. Renders
// nothing for other runs.
// Not responsible for the external mark beside it (ExternalBadge) nor for receiving traces (lib/server/otel).
import { useState } from 'react';
import { traceIdOf } from '@/lib/contract/traces';
import { useRunStore } from '../page/RunStoreContext';
import styles from './TraceBadge.module.css';

export function TraceBadge() {
  const traceId = useRunStore((s) => traceIdOf(s.tree.external));
  const [copied, setCopied] = useState(false);
  if (!traceId) return null;
  const copy = () => {
    void navigator.clipboard?.writeText(traceId).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <button
      type="button"
      className={`badge ${styles.trace}`}
      onClick={copy}
      title={`OpenTelemetry trace ${traceId}: click to copy. No channel leads back to a traced program, so it cannot be steered from here.`}
      data-testid="run-trace-id"
    >
      trace <span className={styles.id}>{traceId}</span>
      {copied && <span className={styles.copied}> copied</span>}
    </button>
  );
}
