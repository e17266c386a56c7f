/**
 * The code task through the OpenAI-compatible backend: the real OpenAIModel, over HTTP, against a local server that
 * answers the task's own prompts with its offline simulation. What a real model receives is what this server reads
 * (the markers, the project's files, the scratchpad), and the proposals it sends back are parsed, run in the
 * sandbox and combined into a verified patch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseCodeOutput } from '../../contract/code';
import type { ExplorationEvent } from '../../contract/events';
import { ThoughtTreeExecutor } from '../../engine/server';
import { OpenAIModel } from '../../models/index';
import { startFakeOpenAI, type FakeOpenAIServer } from '../../models/testing';
import { simulationHandler } from '../testing/simulation-openai';
import { codeSimulation } from './simulation';
import { codeTask } from './task';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the code task through OpenAIModel over HTTP', () => {
  it('reaches a verified patch, every call crossing the socket', async () => {
    const server = await startFakeOpenAI(simulationHandler(codeSimulation, 1));
    servers.push(server);
    const model = new OpenAIModel({
      apiKey: 'sk-test',
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      sleep: async () => undefined,
    });
    const events: ExplorationEvent[] = [];
    const result = await new ThoughtTreeExecutor().explore({ name: 'arborist', model }, 'project: bench/clamp-range', {
      task: codeTask,
      onEvent: (e) => events.push(e),
    });

    expect(result.verified).toBe(true);
    expect(parseCodeOutput(result.output)?.patch).toMatch(/^diff --git a\/src\//);
    const calls = events.flatMap((e) => (e.type === 'model.called' ? [e.payload] : []));
    expect(server.requests).toHaveLength(calls.length);
    expect(calls.map((c) => c.purpose)).toEqual(expect.arrayContaining(['generate', 'evaluate']));
    expect(calls.every((c) => c.error === null)).toBe(true);
    const firstPrompt = JSON.stringify(server.requests[0]?.body?.messages);
    expect(firstPrompt).toContain('### Code change: propose');
    expect(firstPrompt).toContain('<file path=\\"src/range.ts\\">');
  }, 120_000);
});
