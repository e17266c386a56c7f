import { describe, expect, it } from 'vitest';
import { importAnswer, importFileProblem, MAX_IMPORT_MB } from './import-file';

describe('importFileProblem', () => {
  it('sends a .json file or one typed as JSON within the limit, and refuses others with the reason', () => {
    expect(importFileProblem({ name: 'run.json', type: '', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'log', type: 'application/json', size: 10 })).toBeNull();
    expect(importFileProblem({ name: 'run.txt', type: 'text/plain', size: 10 })).toMatch(/choose a \.json file/);
    expect(importFileProblem({ name: 'big.json', type: '', size: MAX_IMPORT_MB * 1024 * 1024 + 1 })).toMatch(
      /larger than the 50 MB limit/,
    );
  });
});

describe('importAnswer', () => {
  it("reads the imported runs, or the server's words, or its status when it said nothing", () => {
    const runs = [{ id: 'r1', goal: 'g' }];
    expect(importAnswer(200, { runs })).toEqual({ runs });
    expect(importAnswer(200, { runs, experimentId: 'e1' })).toEqual({ runs, experimentId: 'e1' });
    expect(importAnswer(400, { error: 'not an export' })).toEqual({ error: 'not an export' });
    expect(importAnswer(502, null)).toEqual({ error: 'the server answered 502: nothing was imported' });
  });
});
