/**
 * lib/experiments' second door: what needs the server's files. A shipped set's items are read from lib/tasks (the
 * puzzle list, the benchmark projects on disk), so they are for lib/server, lib/cli and tests, never the browser;
 * everything pure (parsing, aggregates, comparison, export, the list of shipped sets) is the front door, index.ts.
 * Not responsible for anything itself: shipped.ts holds the definitions.
 */
export { rankTag, shippedDatasetItems } from './shipped';
