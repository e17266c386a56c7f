// A traced run is known by its trace id in the external config, and its page and server say the same words on why
// it cannot be steered.
import { describe, expect, it } from 'vitest';
import { externalSteerBlock, steeringUnavailable } from './steering';
import { TRACE_ID_KEY, traceIdOf } from './traces';

const traced = { commands: [], config: { [TRACE_ID_KEY]: '4bf92f3577b34da6a3ce929d0e0e4736' } };

describe('a run made from a trace', () => {
  it('is known by its trace id, and only a 32-hex id counts', () => {
    expect(traceIdOf(traced)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdOf({ config: { [TRACE_ID_KEY]: 'not-an-id' } })).toBeNull();
    expect(traceIdOf({ config: {} })).toBeNull();
    expect(traceIdOf(null)).toBeNull();
  });

  it('says steering is unavailable because nothing leads back to the program, for every command', () => {
    expect(steeringUnavailable(traced, 'tot-example')).toMatch(/traced program only sends spans/);
    expect(externalSteerBlock(traced, 'tot-example', 'prune')).toBe(steeringUnavailable(traced, 'tot-example'));
    // an ingest client that listens for nothing keeps its own words
    expect(steeringUnavailable({ commands: [], config: {} }, 'py-tot')).toMatch(/py-tot does not listen/);
  });
});
