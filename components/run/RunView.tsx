'use client';
// The run page: a store for this run, the live event stream into it, the header with its commands, the canvas,
// the inspector and the event log, and the keyboard.
import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useState } from 'react';
import { createRunStore } from '@/lib/store/run-store';
import { EventLog } from './event-log/EventLog';
import { Inspector } from './inspector/Inspector';
import { KeyboardHelp } from './KeyboardHelp';
import { RunCanvas } from './RunCanvas';
import { RunHeader, useRunStatus } from './RunHeader';
import { RunStoreProvider } from './RunStoreContext';
import { useRunCommands } from './useRunCommands';
import { useRunEvents } from './useRunEvents';
import { useRunKeyboard } from './useRunKeyboard';

export function RunView({ runId }: { runId: string }) {
  const [store] = useState(() => createRunStore(runId));
  return (
    <RunStoreProvider store={store}>
      <ReactFlowProvider>
        <RunPage runId={runId} />
      </ReactFlowProvider>
    </RunStoreProvider>
  );
}

function RunPage({ runId }: { runId: string }) {
  const connection = useRunEvents(runId);
  const commands = useRunCommands(runId);
  const { status, run, loadError } = useRunStatus(runId);
  const [help, setHelp] = useState(false);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  useRunKeyboard(commands, status, toggleHelp);
  return (
    <div className="run-page">
      <RunHeader
        runId={runId}
        run={run}
        status={status}
        connection={connection}
        commands={commands}
        onHelp={toggleHelp}
      />
      {loadError ? (
        <div className="run-missing">
          <h1>{loadError.notFound ? 'No such run' : 'Could not load this run'}</h1>
          <p>{loadError.message}</p>
          <a className="btn" href="/">
            All runs
          </a>
        </div>
      ) : (
        <div className="run-body">
          <div className="run-canvas">
            <RunCanvas commands={commands} />
          </div>
          <Inspector runId={runId} />
          <EventLog />
        </div>
      )}
      {help && <KeyboardHelp onClose={toggleHelp} />}
    </div>
  );
}
