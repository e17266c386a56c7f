'use client';
// The canvas's own controls: zoom to fit, follow live, what to fold or collapse, how to lay the tree out (tree or
// per-depth layers, top-to-bottom or left-to-right, remembered), and the legend of colours and marks.
import { Panel } from '@xyflow/react';
import { useState } from 'react';
import { setCanvasPrefs, useCanvasPrefs } from './prefs';
import { useRunStore } from '../page/RunStoreContext';

const LEGEND: { cls: string; label: string }[] = [
  { cls: 'st-pending', label: 'pending: created, not run yet' },
  { cls: 'st-running', label: 'running now' },
  { cls: 'st-completed', label: 'completed' },
  { cls: 'st-verified', label: 'verified by the task' },
  { cls: 'st-failed', label: 'failed: error, failed check, or every candidate too weak' },
  { cls: 'st-pruned', label: 'pruned by a person' },
  { cls: 'st-dropped', label: 'pruned by rule: by score (below the threshold), or by the search itself' },
];

export function CanvasToolbar({
  autoCollapse,
  onAutoCollapse,
  onFit,
  runEnded,
}: {
  autoCollapse: boolean;
  onAutoCollapse: (on: boolean) => void;
  onFit: () => void;
  runEnded: boolean;
}) {
  const { orientation, mode } = useCanvasPrefs();
  const followLive = useRunStore((s) => s.followLive);
  const foldDeadEnds = useRunStore((s) => s.foldDeadEnds);
  const showDropped = useRunStore((s) => s.showDropped);
  const setView = useRunStore((s) => s.setView);
  const [legend, setLegend] = useState(false);
  // the toggles of what is shown live in a menu, so the toolbar keeps one row beside the search box
  const [viewOpen, setViewOpen] = useState(false);
  return (
    <>
      <Panel position="top-left" className="canvas-toolbar">
        <button className="btn btn-sm" onClick={onFit} title="Zoom to fit (f)" data-testid="canvas-fit">
          Fit
        </button>
        <span className="btn-group" role="group" aria-label="Layout">
          <button
            className={`btn btn-sm${mode === 'tree' ? ' btn-on' : ''}`}
            aria-pressed={mode === 'tree'}
            onClick={() => setCanvasPrefs({ mode: 'tree' })}
            title="The search tree: each node under its parent"
          >
            Tree
          </button>
          <button
            className={`btn btn-sm${mode === 'layers' ? ' btn-on' : ''}`}
            aria-pressed={mode === 'layers'}
            onClick={() => setCanvasPrefs({ mode: 'layers' })}
            title="One column per depth, candidates sorted by value; the ones that never ran are faint"
            data-testid="layout-layers"
          >
            Layers
          </button>
        </span>
        <button
          className="btn btn-sm"
          onClick={() => setCanvasPrefs({ orientation: orientation === 'tb' ? 'lr' : 'tb' })}
          title={
            orientation === 'tb'
              ? 'Depth runs down: switch to left-to-right'
              : 'Depth runs right: switch to top-to-bottom'
          }
          aria-label={`Orientation: ${orientation === 'tb' ? 'top to bottom' : 'left to right'}`}
          data-testid="orientation"
          data-orientation={orientation}
        >
          {orientation === 'tb' ? '↓ Top-down' : '→ Left-right'}
        </button>
        {/* an ended run has nothing more to follow: the toggle is off and says why (it comes back if the run goes on) */}
        <button
          className={`btn btn-sm${followLive && !runEnded ? ' btn-on' : ''}`}
          aria-pressed={followLive && !runEnded}
          disabled={runEnded}
          onClick={() => setView({ followLive: !followLive })}
          title={
            runEnded
              ? 'The run has ended: nothing more to follow'
              : 'Keep the newest activity in view (stops when you pan)'
          }
          data-testid="follow-live"
        >
          Follow live
        </button>
        <span className="view-menu">
          <button
            className={`btn btn-sm${viewOpen ? ' btn-on' : ''}`}
            aria-expanded={viewOpen}
            aria-controls="canvas-view-menu"
            onClick={() => setViewOpen(!viewOpen)}
            data-testid="canvas-view"
          >
            View ▾
          </button>
          {viewOpen && (
            <span
              className="view-menu-panel"
              id="canvas-view-menu"
              role="group"
              aria-label="What the canvas shows"
              onKeyDown={(event) => {
                if (event.key === 'Escape') setViewOpen(false);
              }}
            >
              <button
                className={`btn btn-sm${autoCollapse ? '' : ' btn-on'}`}
                aria-pressed={!autoCollapse}
                onClick={() => onAutoCollapse(!autoCollapse)}
                title="Show every branch, or only those around the selection, the best path and the frontier"
                data-testid="show-all"
              >
                Show all
              </button>
              <button
                className={`btn btn-sm${foldDeadEnds ? ' btn-on' : ''}`}
                aria-pressed={foldDeadEnds}
                onClick={() => setView({ foldDeadEnds: !foldDeadEnds })}
                title="Fold each parent's failed branches and those a person pruned into one card"
              >
                Fold dead ends
              </button>
              <button
                className={`btn btn-sm${showDropped ? ' btn-on' : ''}`}
                aria-pressed={showDropped}
                onClick={() => setView({ showDropped: !showDropped })}
                title="Show the candidates dropped below the threshold and the branches the search pruned itself"
              >
                Pruned by score
              </button>
              <button
                className={`btn btn-sm${legend ? ' btn-on' : ''}`}
                aria-pressed={legend}
                onClick={() => setLegend(!legend)}
              >
                Legend
              </button>
            </span>
          )}
        </span>
      </Panel>
      {legend && (
        <Panel position="top-left" className="legend" aria-label="Legend">
          <ul>
            {LEGEND.map((l) => (
              <li key={l.cls}>
                <span className={`badge ${l.cls}`}>{l.label.split(':')[0]}</span>
                <span>{l.label.includes(':') ? l.label.slice(l.label.indexOf(':') + 1) : ''}</span>
              </li>
            ))}
            <li>
              <span className="legend-line legend-best" /> best path (highest cumulative score)
            </li>
            <li>
              <span className="legend-line legend-backtrack" /> latest backtrack, to the alternative run next
            </li>
            <li>
              <span className="mark mark-next">next</span> <span className="mark mark-queued">queued</span> the frontier
            </li>
            <li>
              <span className="mark mark-person">re-expanded by …</span> a person’s action
            </li>
          </ul>
        </Panel>
      )}
    </>
  );
}
