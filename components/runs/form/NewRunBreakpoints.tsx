'use client';
// The new-run form's "Breakpoints" section, collapsed until opened: conditions the run starts with (sent as
// run.create's `breakpoints`), so it stops at the first hit without anyone watching for it. The same list rows and
// add form as the run page's panel (components/run/breakpoints). The summary beside the closed section says how many.
// Not responsible for sending (NewRunForm.tsx) nor for the conditions' rules (lib/contract/breakpoints.ts).
import { useId, useState } from 'react';
import type { Breakpoint } from '@/lib/contract/breakpoints';
import { addBlock, addBreakpoint } from '@/lib/store/index';
import { AddBreakpointForm } from '@/components/run/breakpoints/AddBreakpointForm';
import { BreakpointList } from '@/components/run/breakpoints/BreakpointList';
import s from './NewRunForm.module.css';

export function NewRunBreakpoints({
  list,
  onChange,
}: {
  list: readonly Breakpoint[];
  onChange: (list: readonly Breakpoint[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const on = list.filter((b) => b.enabled).length;
  return (
    <section className={s.breakpoints} aria-label="Breakpoints" data-testid="new-run-breakpoints">
      <button
        type="button"
        className={s.disclosure}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        data-testid="new-run-breakpoints-toggle"
      >
        <span className={s.chevron} aria-hidden>
          ▸
        </span>
        Breakpoints
        <span className={s.summary}>
          {list.length === 0 ? 'none: the run stops only when you pause it' : `${on} of ${list.length} on`}
        </span>
      </button>
      {open && (
        <div id={id} className={s.breakpointsBody}>
          <p className="field-hint">The run stops by itself at the end of the step where one of these happens.</p>
          <BreakpointList list={list} counts={null} onChange={onChange} />
          <AddBreakpointForm
            disabled={addBlock(list)}
            defaultNodeId={null}
            onAdd={(condition) => onChange(addBreakpoint(list, condition))}
          />
        </div>
      )}
    </section>
  );
}
