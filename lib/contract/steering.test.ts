import { describe, expect, it } from 'vitest';
import { ingestCreateSchema } from './ingest';
import { clientName, externalBreakpointBlock, externalSteerBlock, externalTag, steeringUnavailable } from './steering';

describe('what a search Arborist does not run takes', () => {
  it('takes everything when Arborist runs the search', () => {
    expect(steeringUnavailable(null, 'arborist')).toBeNull();
    expect(externalSteerBlock(null, 'arborist', 'abort')).toBeNull();
  });

  it('names the program when its client takes no command, and each kind it does not take', () => {
    expect(steeringUnavailable({ commands: [] }, 'my-mcts')).toBe(
      'steering is unavailable: my-mcts does not listen for commands',
    );
    expect(steeringUnavailable({ commands: [] }, ' ')).toBe(
      'steering is unavailable: the client does not listen for commands',
    );
    expect(externalSteerBlock({ commands: ['prune'] }, 'my-mcts', 'prune')).toBeNull();
    expect(externalSteerBlock({ commands: ['prune'] }, 'my-mcts', 'pause')).toBe(
      'this search does not take pause commands',
    );
  });

  it('takes breakpoints only from a client that takes pause, since a breakpoint stops it by asking it to pause', () => {
    expect(externalBreakpointBlock(null, 'arborist')).toBeNull();
    expect(externalBreakpointBlock({ commands: ['pause', 'resume'] }, 'my-mcts')).toBeNull();
    expect(externalBreakpointBlock({ commands: ['prune'] }, 'my-mcts')).toBe(
      'breakpoints stop this search by asking its client to pause, but this search does not take pause commands',
    );
    expect(externalBreakpointBlock({ commands: [] }, 'my-mcts')).toBe(
      'breakpoints stop this search by asking its client to pause, but steering is unavailable: my-mcts does not listen for commands',
    );
  });
});

describe("the program's name", () => {
  it('reads an unnamed program (no agent given: the ingest default) as no name, never as "external"', () => {
    const { agent } = ingestCreateSchema.parse({ goal: 'g' });
    expect(clientName(agent)).toBeNull();
    expect(clientName(' ')).toBeNull();
    expect(clientName(' my-mcts ')).toBe('my-mcts');
  });

  it('tags an external run "external", with the program\'s name only when it gave one', () => {
    const { agent } = ingestCreateSchema.parse({ goal: 'g' });
    expect(externalTag(agent)).toEqual({ text: 'external', agent: null });
    expect(externalTag('py-tot')).toEqual({ text: 'external: py-tot', agent: 'py-tot' });
  });

  it('words the refusals of an unnamed program with "the client", not its default name', () => {
    const { agent } = ingestCreateSchema.parse({ goal: 'g' });
    expect(steeringUnavailable({ commands: [] }, agent)).toBe(
      'steering is unavailable: the client does not listen for commands',
    );
  });
});
