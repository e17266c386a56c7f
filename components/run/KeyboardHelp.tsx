'use client';
// The list of keys, opened with "?".
import { KEYS } from './useRunKeyboard';

export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <div className="panel-head">
          <h2>Keyboard</h2>
          <button className="btn btn-sm" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
        <table className="keys">
          <tbody>
            {KEYS.map((k) => (
              <tr key={k.keys}>
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
