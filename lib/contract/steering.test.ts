import { describe, expect, it } from 'vitest';
import { externalSteerBlock, steeringUnavailable } from './steering';

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
});
