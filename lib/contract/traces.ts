/**
 * A run made from an OpenTelemetry trace (lib/server/otel): the receiver records the trace's id in the external
 * config of its run.started (the program's own config, as the page shows it), under one key written and read here.
 * Browser-safe and pure. Not responsible for receiving traces or storing the id for search (IngestClient.traceId).
 */

/** The external config key that holds a traced run's trace id (32 lowercase hex digits). */
export const TRACE_ID_KEY = 'otel.trace_id';

/** The trace a run was made from, or null for every other run. */
export function traceIdOf(external: { config?: Record<string, unknown> } | null | undefined): string | null {
  const id = external?.config?.[TRACE_ID_KEY];
  return typeof id === 'string' && /^[0-9a-f]{32}$/.test(id) ? id : null;
}
