'use client';
// The event log panel: every event in order. (Placeholder until the panel lands.)
import { useRunStore } from '../RunStoreContext';

export function EventLog() {
  const count = useRunStore((s) => s.events.length);
  return <section className="event-log-placeholder">{count} events</section>;
}
