/**
 * lib/experiments' front door: the pure side of experiments (the page, the API, the CLI). Browser-safe (its
 * package.json says it has no side effects, so a page bundles only what it uses); a shipped set's items are behind
 * the second door, server.ts.
 * Not responsible for anything itself: it names what is public; the files beside it hold the definitions.
 */
export {
  formatLabelCounts,
  isDone,
  labelsByConfiguration,
  median,
  progressOf,
  summarizeByConfiguration,
  summarizeCells,
} from './aggregate';
export type { ExperimentProgress, RunLabelCount } from './aggregate';
export { compareConfigurations, compareHref, foldRepetitions } from './compare';
export type { ConfigurationComparison, FoldedCell, ItemComparison } from './compare';
export {
  GAME24_PUZZLE_COUNT,
  parseCsvRecords,
  parseDatasetFile,
  parseShippedDatasetId,
  SHIPPED_DATASETS,
  shippedDataset,
} from './datasets';
export type { CsvRecord, DatasetFileFormat, DatasetParse, ShippedDataset, ShippedDatasetRef } from './datasets';
export {
  csvField,
  EXPORT_COLUMNS,
  experimentCsv,
  experimentFileName,
  experimentJson,
  experimentRows,
  neutraliseFormula,
} from './export';
export type { ExperimentExportRow, ExperimentExportView } from './export';
export { wilsonInterval, Z_95 } from './wilson';
