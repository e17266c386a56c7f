'use client';
// The list of keys, opened with "?": the page's keys (KEYS, defined with their handler in useRunKeyboard.ts) and
// the keys of the side drawer's own controls. Escape (wherever focus is) or a click outside closes it, and focus
// goes back where it was. Not responsible for handling the keys.
import { useRunAccess } from './RunAccess';
import { useDialogKeys } from '../../shared/useDialogKeys';
import { KEYS } from './useRunKeyboard';
import { useSteering } from '../steering/useSteering';

/** Keys that act on a focused control rather than the page (RunDrawer.tsx handles them). */
const DRAWER_KEYS: { keys: string; what: string }[] = [
  { keys: '← →', what: 'on the side panel tabs: switch tab' },
  { keys: '← →', what: 'on the side panel edge: wider / narrower (Shift: faster)' },
];

export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  useDialogKeys(onClose);
  // steering keys are listed only where they can act: a person allowed to steer, and a search that takes commands;
  // the discussion's keys for whoever may discuss the run
  const access = useRunAccess();
  const steering = useSteering();
  const steer = access.steer && !steering.unavailable;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      {/* focusable, so a click on its text keeps focus in the dialog */}
      <div className="overlay-card" tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <div className="panel-head">
          <h2>Keyboard</h2>
          <button className="btn btn-sm" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
        <table className="keys">
          <tbody>
            {[...KEYS.filter((k) => (steer || !k.steer) && (access.discuss || !k.discuss)), ...DRAWER_KEYS].map((k) => (
              <tr key={`${k.keys} ${k.what}`}>
                <td>
                  <kbd>{k.keys}</kbd>
                </td>
                <td>{k.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
