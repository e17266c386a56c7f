/**
 * A run's live events over HTTP (`/api/runs/<id>/events.ndjson?follow=1`), each handed to `onEvent` with the moment
 * its chunk arrived (performance.now()): what the benchmarks that time the stream from outside share.
 * Not responsible for what a benchmark does with the events, nor for starting the server.
 */
import type { ExplorationEvent } from '../contract/events';

export function followRunEvents(
  base: string,
  runId: string,
  onEvent: (event: ExplorationEvent, arrivedAt: number) => void,
): { stop(): Promise<void> } {
  const controller = new AbortController();
  const reading = (async () => {
    const res = await fetch(`${base}/api/runs/${runId}/events.ndjson?follow=1`, { signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const now = performance.now();
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line) onEvent(JSON.parse(line) as ExplorationEvent, now);
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    async stop() {
      controller.abort();
      await reading;
    },
  };
}
