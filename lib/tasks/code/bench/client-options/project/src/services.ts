import { createClient } from './client';

/** The API answers fast; retry it a few times. */
export const apiClient = createClient('https://api.example.com/', 10_000, 3);

/** The file store is slow to start a download: give it 30 s and three retries. */
export const filesClient = createClient('https://files.example.com', 3, 30_000);

/** Telemetry is best effort: a short wait, no retry, its own user agent. */
export const telemetryClient = createClient('https://telemetry.example.com', 1_000, 0, 'arborist-telemetry');
