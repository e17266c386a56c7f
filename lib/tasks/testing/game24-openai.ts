/**
 * Test support: a handler for the fake OpenAI server (lib/models/testing.ts) that answers Game of 24 propose and value
 * prompts with the task's own offline simulation (simulation-openai.ts), so a whole search can run over HTTP through
 * OpenAIModel. Used by the OpenAI tests and the browser test of the OpenAI backend.
 */
import type { Handler } from '../../models/testing';
import { game24Simulation } from '../game24/simulation';
import { simulationHandler } from './simulation-openai';

export function game24Handler(seed = 7): Handler {
  return simulationHandler(game24Simulation, seed);
}
