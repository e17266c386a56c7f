/**
 * Test support: a handler for the fake OpenAI server (lib/models/testing.ts) that answers Game of 24 propose and value
 * prompts with the task's own offline simulation, deterministically, with OpenAI-style usage, so a whole search can
 * run over HTTP through OpenAIModel. Used by the OpenAI tests and the browser test of the OpenAI backend. It lives
 * in lib/tasks' test support, with the task it answers for, so lib/models (the backends) never imports lib/tasks.
 */
import type { ChatMessage } from '../../contract/vocabulary';
import type { CompletionRequest } from '../../engine/index';
import { countTokens, createRng, hashString } from '../../models/index';
import { completionBody, errorBody, type Handler } from '../../models/testing';
import { game24Simulation } from '../game24/simulation';

export function game24Handler(seed = 7): Handler {
  return (received) => {
    const messages = (received.body?.messages ?? []) as ChatMessage[];
    const request: CompletionRequest = { purpose: 'generate', messages };
    if (!game24Simulation.recognizes(request)) {
      return { status: 400, json: errorBody('not a Game of 24 prompt', 'invalid_request_error') };
    }
    const text = game24Simulation.respond(request, createRng(hashString(JSON.stringify(messages), seed)));
    const prompt = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    return {
      json: completionBody(text, {
        model: received.body?.model,
        usage: { prompt_tokens: prompt, completion_tokens: countTokens(text) },
      }),
    };
  };
}
