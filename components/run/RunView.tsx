'use client';
// The run page: a store for this run, the live event stream into it, the header, the canvas, the inspector on the
// right and the event log under the canvas.
import { ReactFlowProvider } from '@xyflow/react';
import { useState } from 'react';
import { createRunStore } from '@/lib/store/run-store';
import { EventLog } from './event-log/EventLog';
import { Inspector } from './inspector/Inspector';
import { RunCanvas } from './RunCanvas';
import { RunHeader } from './RunHeader';
import { RunStoreProvider } from './RunStoreContext';
import { useRunEvents } from './useRunEvents';
import styles from './RunView.module.css';

export function RunView({ runId }: { runId: string }) {
  const [store] = useState(() => createRunStore(runId));
  const connection = useRunEvents(store);
  return (
    <RunStoreProvider store={store}>
      <ReactFlowProvider>
        <div className="run-page">
          <RunHeader runId={runId} connection={connection.state} onRetry={connection.retry} />
          <div className={`run-body ${styles.body}`}>
            <div className={`run-canvas ${styles.canvas}`}>
              <RunCanvas />
            </div>
            <Inspector runId={runId} />
            <EventLog />
          </div>
        </div>
      </ReactFlowProvider>
    </RunStoreProvider>
  );
}
