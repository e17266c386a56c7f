'use client';
// The run page: a store for this run, the live event stream into it, the header with its commands, the canvas with
// the timeline strip under it (and the banner of a stop at a breakpoint over it), the drawer (inspector, event log,
// breakpoints and discussion as tabs) on the right, and the keyboard.
// Its frame is RunLayout.module.css; the drawer is RunDrawer.tsx. Not responsible for what each part shows.
import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useState } from 'react';
import { hasEnded } from '@/lib/contract/run-status';
import { createPageViewStore, createRunStore, PRUNE_ASK_ABOVE, pruneReach } from '@/lib/store/index';
import { BreakpointsPanel } from '../breakpoints/BreakpointsPanel';
import { BreakpointStop } from '../breakpoints/BreakpointStop';
import { useBreakpoints } from '../breakpoints/useBreakpoints';
import { EventLog } from '../event-log/EventLog';
import { ForkDialog } from '../steering/ForkDialog';
import { Inspector } from '../inspector/Inspector';
import { KeyboardHelp } from './KeyboardHelp';
import { Overview } from '../overview/Overview';
import { RunAccessProvider, useRunAccess } from './RunAccess';
import { RunCanvas } from '../canvas/RunCanvas';
import { RunDrawer } from './RunDrawer';
import { RunHeader } from '../header/RunHeader';
import { useRunStatus } from '../header/useRunStatus';
import { PageViewProvider } from './PageViewContext';
import { RunStoreProvider, useRunStore, useRunStoreApi } from './RunStoreContext';
import { PruneConfirm } from '../steering/PruneConfirm';
import { SearchBox } from '../search/SearchBox';
import { useRunCommands } from '../steering/useRunCommands';
import { useRunEvents } from './useRunEvents';
import { useDiscussion } from '../discussion/useDiscussion';
import { DiscussionPanel } from '../discussion/DiscussionPanel';
import { useDiscussionKeys } from '../discussion/useDiscussionKeys';
import { useRunDrawer } from './useRunDrawer';
import { useRunKeyboard } from './useRunKeyboard';
import { useSteering } from '../steering/useSteering';
import { useRunUrl } from './useRunUrl';
import { Timeline } from '../timeline/Timeline';
import layout from './RunLayout.module.css';

export function RunView({ runId }: { runId: string }) {
  const [store] = useState(() => createRunStore(runId));
  const [pageView] = useState(createPageViewStore);
  return (
    <RunStoreProvider store={store}>
      <PageViewProvider store={pageView}>
        <ReactFlowProvider>
          <RunAccessProvider runId={runId}>
            <RunPage runId={runId} />
          </RunAccessProvider>
        </ReactFlowProvider>
      </PageViewProvider>
    </RunStoreProvider>
  );
}

function RunPage({ runId }: { runId: string }) {
  const discussion = useDiscussion(runId);
  const connection = useRunEvents(runId, { onDiscussed: discussion.refresh });
  const commands = useRunCommands(runId);
  const { status, run, loadError } = useRunStatus(runId, connection.endedUnexplained);
  const [help, setHelp] = useState(false);
  const [forkFrom, setForkFrom] = useState<string | null>(null);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const drawer = useRunDrawer();
  const store = useRunStoreApi();
  // a keyboard prune of more than a few nodes asks first (a prune cannot be undone: lib/store/prune.ts)
  const [pruneAsk, setPruneAsk] = useState<{ nodeId: string; reach: number } | null>(null);
  const { prune } = commands;
  const requestPrune = useCallback(
    (nodeId: string) => {
      const reach = pruneReach(store.getState().tree, nodeId);
      if (reach > PRUNE_ASK_ABOVE) setPruneAsk({ nodeId, reach });
      else prune(nodeId);
    },
    [store, prune],
  );
  const cancelPrune = useCallback(() => setPruneAsk(null), []);
  const allowed = useRunAccess();
  const steering = useSteering();
  const breakpoints = useBreakpoints(commands);
  useRunKeyboard(commands, toggleHelp, drawer, requestPrune, steering);
  useDiscussionKeys(runId, drawer);
  // a link to a comment opens the Discussion tab, where the comment is highlighted
  const urlProblem = useRunUrl(drawer.show);
  return (
    <div className={`run-page ${layout.page}`}>
      <RunHeader
        runId={runId}
        run={run}
        status={status}
        connection={connection}
        commands={commands}
        onHelp={toggleHelp}
      />
      {loadError ? (
        <div className="run-missing" data-testid="run-missing">
          <h1>
            {loadError.notFound
              ? 'No such run'
              : loadError.refused
                ? 'You may not open this run'
                : 'Could not load this run'}
          </h1>
          <p>
            {loadError.notFound
              ? 'It may have been deleted, or the link is mistyped. Runs live in the database of the server you opened.'
              : loadError.message}
          </p>
          <a className="btn" href="/">
            All runs
          </a>
        </div>
      ) : urlProblem ? (
        <div className="run-missing" data-testid="step-problem">
          <h1>
            {urlProblem.kind === 'bad-step' ? 'This link has a bad step' : 'That step is beyond the end of this run'}
          </h1>
          <p>
            {urlProblem.kind === 'bad-step'
              ? `"${urlProblem.value}" is not a step: steps are whole numbers (the seq of an event).`
              : `The link asks for step ${urlProblem.step}, but this run has ${urlProblem.lastSeq} events.`}
          </p>
          <div className="run-missing-actions">
            {urlProblem.kind === 'beyond-end' && (
              <a className="btn btn-primary" href={`/runs/${runId}?step=${urlProblem.lastSeq}`}>
                Open at its last step
              </a>
            )}
            <a className="btn" href={`/runs/${runId}`}>
              Open the run
            </a>
          </div>
        </div>
      ) : (
        <div className={`run-body ${layout.body}`}>
          <div className={layout.main}>
            {/* .run-canvas: the search box finds the canvas by this class. The search box sits in the canvas's toolbar row
                and the overview in its bottom-right corner: both move with the canvas box, and a docked drawer
                never covers them. */}
            <div className={`run-canvas ${layout.canvas}`}>
              <SearchBox />
              <RunCanvas commands={commands} onFork={setForkFrom} runEnded={hasEnded(status)} />
              <WaitingNote status={status} />
              <BreakpointStop commands={commands} view={breakpoints} />
              <Overview />
            </div>
            <Timeline />
          </div>
          <RunDrawer
            drawer={drawer}
            inspector={<Inspector runId={runId} />}
            events={<EventLog />}
            breakpoints={<BreakpointsPanel view={breakpoints} />}
            discussion={<DiscussionPanel runId={runId} />}
          />
        </div>
      )}
      {help && <KeyboardHelp onClose={toggleHelp} />}
      {pruneAsk && (
        <PruneConfirm
          nodeId={pruneAsk.nodeId}
          reach={pruneAsk.reach}
          onCancel={cancelPrune}
          onPrune={() => {
            setPruneAsk(null);
            prune(pruneAsk.nodeId);
          }}
        />
      )}
      {forkFrom && allowed.fork && <ForkDialog runId={runId} nodeId={forkFrom} onClose={() => setForkFrom(null)} />}
    </div>
  );
}

/**
 * What an empty canvas says while the run waits without a tree: a queued run starts on its own when a slot frees
 * (the page follows it from the stream), an interrupted one waits for Resume. Nothing once the tree has a node.
 */
function WaitingNote({ status }: { status: string }) {
  const empty = useRunStore((s) => s.tree.nodeOrder.length === 0);
  if (!empty || (status !== 'queued' && status !== 'interrupted')) return null;
  return (
    <div className={layout.waitingNote} data-testid="canvas-note" role="status">
      {status === 'queued' ? (
        <>
          <b>Queued</b>
          <span>Every slot is taken: this run starts on its own when one frees, and this page follows it.</span>
        </>
      ) : (
        <>
          <b>Interrupted before it started</b>
          <span>The server stopped while it waited. Resume runs it from its log.</span>
        </>
      )}
    </div>
  );
}
