'use client';
// The banner over the canvas while a running run is stopped at a breakpoint: why it stopped (the condition in words
// and the hit's own sentence, as text: it quotes model output), the node it concerns, and what to do next: continue
// to the next hit, take one step, switch this breakpoint off (the run stays paused), or resume with every breakpoint
// off. When the run stops at a new hit, the page selects the hit's node and centres it.
// Not responsible for the pause itself (the engine) nor for sending commands (useRunCommands, useBreakpoints).
import { useEffect } from 'react';
import { describeCondition } from '@/lib/contract/breakpoints';
import { setEnabled } from '@/lib/store/index';
import { usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import type { RunCommands } from '../steering/useRunCommands';
import { useSteering } from '../steering/useSteering';
import type { BreakpointsView } from './useBreakpoints';
import styles from './Breakpoints.module.css';

export function BreakpointStop({ commands, view }: { commands: RunCommands; view: BreakpointsView }) {
  const hit = useRunStore((s) => (s.liveStatus === 'paused' ? s.liveHit : null));
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const steering = useSteering();

  // a new stop: its node is what the person wants to see (selected, centred), unless they are looking at the past
  useEffect(() => {
    const nodeId = hit?.nodeId;
    if (!nodeId) return;
    const state = store.getState();
    if (state.viewSeq !== null) return;
    state.select(nodeId);
    pageView.getState().requestFocus([nodeId]);
  }, [hit, store, pageView]);

  if (!hit) return null;
  const resumeWhy = steering.why('resume');
  const stepWhy = steering.why('step');
  const own = view.list.find((b) => b.id === hit.breakpointId);
  const disableWhy = view.readOnly ?? (!own ? 'it has been removed' : !own.enabled ? 'it is already off' : null);
  const anyOn = view.list.some((b) => b.enabled);
  const canSteer = steering.context.allowed && !steering.unavailable;

  return (
    <div
      className={styles.stop}
      role="status"
      aria-live="polite"
      data-testid="breakpoint-stop"
      data-node-id={hit.nodeId ?? ''}
    >
      <div className={styles.stopHead}>
        <span className={styles.stopDot} aria-hidden="true" />
        <span className={styles.stopTitle}>Stopped at a breakpoint</span>
        <span className={styles.stopWhy} data-testid="breakpoint-stop-reason">
          {describeCondition(hit.condition)}
        </span>
      </div>
      <p className={styles.stopDetail} data-testid="breakpoint-stop-detail">
        {hit.detail}
        {hit.nodeId && (
          <>
            {' · '}
            <button
              type="button"
              className={styles.nodeLink}
              onClick={() => {
                store.getState().select(hit.nodeId);
                pageView.getState().requestFocus([hit.nodeId as string]);
              }}
              title="Select and centre this node"
            >
              {hit.nodeId}
            </button>
          </>
        )}
        {hit.seq !== null && <span> · step {hit.seq}</span>}
      </p>
      {canSteer && (
        <div className={styles.stopActions}>
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={commands.resume}
            disabled={resumeWhy !== null || commands.busy}
            title={resumeWhy ?? 'Resume until the next breakpoint hits (space)'}
            data-testid="breakpoint-continue"
          >
            Continue to next hit
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={commands.step}
            disabled={stepWhy !== null || commands.busy}
            title={stepWhy ?? 'One step, then pause again (s)'}
            data-testid="breakpoint-step"
          >
            Step
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void view.change(setEnabled(view.list, hit.breakpointId, false))}
            disabled={disableWhy !== null}
            title={
              disableWhy
                ? `Switch this breakpoint off: ${disableWhy}`
                : 'Switch this breakpoint off; the run stays paused'
            }
            data-testid="breakpoint-disable"
          >
            Disable this breakpoint
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void view.resumeWithout()}
            disabled={resumeWhy !== null || view.readOnly !== null || commands.busy}
            title={anyOn ? 'Switch every breakpoint off and resume' : 'Resume (no breakpoint is on)'}
            data-testid="breakpoint-resume-without"
          >
            Resume without breakpoints
          </button>
        </div>
      )}
    </div>
  );
}
