'use client';
// The header's commands on the run: Pause/Resume (one button), Step and Abort, with the last command asked of a
// search Arborist does not run, or why steering is unavailable. Only for whoever may steer (the header decides); a
// command that cannot be asked now is disabled with its reason in its title (useSteering.ts).
// Not responsible for sending (useRunCommands.ts) nor for the rules (lib/store/node-commands.ts).
import { steerBlock } from '@/lib/store/index';
import { RunCommandNote, SteeringUnavailable } from '../steering/SteerCommands';
import type { RunCommands } from '../steering/useRunCommands';
import { useSteering } from '../steering/useSteering';

/** A control's title, and why it is off when it is. */
function withWhy(title: string, why: string | null): string {
  return why ? `${title}: ${why}` : title;
}

export function RunCommandButtons({ status, commands }: { status: string; commands: RunCommands }) {
  const steering = useSteering();
  const resumable = status === 'paused' || status === 'interrupted';
  const toggleWhy = steering.why(resumable ? 'resume' : 'pause');
  const stepWhy = steering.why('step');
  // while the run runs, Step waits for the pause only for a moment: aria-disabled keeps the focus on it
  const stepSoon = status === 'running' && steerBlock('step', { ...steering.context, status: 'paused' }) === null;
  const abortWhy = steering.why('abort');
  return (
    <>
      <RunCommandNote />
      {steering.unavailable && <SteeringUnavailable reason={steering.unavailable} />}
      {!steering.unavailable && (
        <>
          {/* One button that turns from Pause into Resume and back, never disabled while its command is on the way
              (a disabled button drops the focus on the page): focus stays on it, so space or Enter goes on working */}
          <button
            className={`btn${resumable ? ' btn-primary' : ''}`}
            disabled={toggleWhy !== null}
            aria-disabled={commands.busy || undefined}
            onClick={() => {
              if (commands.busy) return;
              if (resumable) commands.resume();
              else commands.pause();
            }}
            title={withWhy(resumable ? 'Resume (space)' : 'Pause (space)', toggleWhy)}
          >
            {resumable ? 'Resume' : 'Pause'}
          </button>
          {/* off while the step runs (the run is running then), but only for the moment: aria-disabled keeps the
              focus on it, so s, space or Enter can take the next step */}
          <button
            className="btn"
            aria-disabled={commands.busy || stepWhy !== null || undefined}
            disabled={stepWhy !== null && !stepSoon}
            onClick={() => {
              if (!commands.busy && stepWhy === null) commands.step();
            }}
            title={withWhy('One step (s)', stepWhy)}
          >
            Step
          </button>
          <button
            className="btn btn-danger"
            disabled={commands.busy || abortWhy !== null}
            onClick={commands.abort}
            title={withWhy('Abort the run', abortWhy)}
          >
            Abort
          </button>
        </>
      )}
    </>
  );
}
