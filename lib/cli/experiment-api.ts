/**
 * The procedures the experiment command calls, one interface for both of its modes: tRPC `experiment.*` and
 * `dataset.*` on a server over HTTP (experiment-remote.ts), or the same router procedures in this process on the local
 * database (experiment-local.ts, through createCaller). experiment.ts only ever talks to this.
 * Not responsible for anything the procedures do (lib/server/trpc/routers/experiment.ts).
 */
import type { CreateDatasetInput, CreateExperimentInput, ExperimentView } from '../contract/experiments';

/** experiment.estimate's answer: the cell count, the cost, and what create would refuse. */
export interface ExperimentEstimateView {
  cells: number;
  estimatedCostUsd: number | null;
  basis: string;
  problems: { field: string; message: string }[];
}

export interface ExperimentApi {
  /** Where the experiment pages are (`<base>/experiments/<id>`). */
  readonly base: string;
  estimate(input: CreateExperimentInput): Promise<ExperimentEstimateView>;
  create(input: CreateExperimentInput): Promise<{ id: string }>;
  byId(id: string): Promise<ExperimentView>;
  pause(id: string): Promise<void>;
  resume(id: string): Promise<void>;
  createDataset(input: CreateDatasetInput): Promise<{ id: string; version: number; itemCount: number }>;
  /** Ends the mode's connection (local: stops its services; their cells in flight stop unwritten). */
  close(): Promise<void>;
}
