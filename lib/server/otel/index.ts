/**
 * lib/server/otel's door: the trace receiver (every OpenTelemetry trace an external run) and what it refuses with.
 * Not responsible for anything itself: it names what is public; service.ts holds the definitions.
 */
export { TraceBackpressure, TraceReceiver } from './service';
export type { ReceiveResult, TraceReceiverOptions, TraceRunState, TraceRunWriter } from './service';
