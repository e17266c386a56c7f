/**
 * Test support: a handler for the fake OpenAI server (lib/models/testing.ts) that answers a task's prompts with the
 * task's own offline simulation, deterministically (seeded by the messages), with OpenAI-style usage, so a whole
 * search can run over HTTP through OpenAIModel. A prompt the simulation does not recognize is a 400. It lives in
 * lib/tasks' test support, with the simulations it plays, so lib/models (the backends) never imports lib/tasks.
 */
import type { ChatMessage } from '../../contract/vocabulary';
import type { CompletionRequest } from '../../engine/index';
import { countTokens, createRng, hashString, type Simulation } from '../../models/index';
import { completionBody, errorBody, type Handler } from '../../models/testing';

export function simulationHandler(simulation: Simulation, seed = 7): Handler {
  return (received) => {
    const messages = (received.body?.messages ?? []) as ChatMessage[];
    const request: CompletionRequest = { purpose: 'generate', messages };
    if (!simulation.recognizes(request)) {
      return { status: 400, json: errorBody(`not a ${simulation.taskId} prompt`, 'invalid_request_error') };
    }
    const text = simulation.respond(request, createRng(hashString(JSON.stringify(messages), seed)));
    const prompt = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    return {
      json: completionBody(text, {
        model: received.body?.model,
        usage: { prompt_tokens: prompt, completion_tokens: countTokens(text) },
      }),
    };
  };
}
