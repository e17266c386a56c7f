/**
 * The offline model with every task's simulation plugged in: the default model of the CLI, the bench and the app.
 * Not responsible for what the simulations say (each task folder's simulation.ts) or how the model works (lib/models).
 */
import { SimulatedModel } from '../models/index';
import { TASKS } from './registry';

export interface SimulatedModelSettings {
  seed?: number;
  /** Milliseconds per call, or [min, max] drawn deterministically per request. */
  latencyMs?: number | [number, number];
}

export function createSimulatedModel(settings: SimulatedModelSettings = {}): SimulatedModel {
  return new SimulatedModel({
    seed: settings.seed,
    latencyMs: settings.latencyMs,
    simulations: TASKS.map((t) => t.simulation),
  });
}
