'use client';
// The header's "more" button and the panel it opens (the run's settings, every figure, links): closes on Escape,
// focus back on the button, and on a click outside. Not responsible for what the panel says (RunHeader.tsx).
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import layout from '../page/RunLayout.module.css';

/** A "more" button and the panel it opens: closes on Escape (focus back on the button) and on a click outside. */
export function MoreMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`btn btn-icon${open ? ' btn-on' : ''}`}
        aria-expanded={open}
        aria-controls={id}
        aria-label="More about this run"
        title="More: the run's settings, every figure, links"
        onClick={() => setOpen(!open)}
        data-testid="run-more"
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" className={layout.icon}>
          <circle cx="3" cy="8" r="1.5" />
          <circle cx="8" cy="8" r="1.5" />
          <circle cx="13" cy="8" r="1.5" />
        </svg>
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          className={layout.more}
          role="dialog"
          aria-label="More about this run"
          tabIndex={-1}
          data-testid="run-more-panel"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Escape closes this panel only; it does not also clear the canvas's selection
            event.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
        >
          {children}
        </div>
      )}
    </>
  );
}
