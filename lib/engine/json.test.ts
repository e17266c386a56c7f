import { describe, expect, it } from 'vitest';
import { extractJson } from './json';
import { parseBranchList, parseScoreJson } from './prompts';

describe('extractJson', () => {
  it('reads plain JSON, fenced JSON and JSON inside prose', () => {
    expect(extractJson('[1, 2]')).toEqual([1, 2]);
    expect(extractJson('Sure!\n```json\n{"a": 1}\n```\nDone.')).toEqual({ a: 1 });
    expect(extractJson('My scores: {"confidence": 0.4, "note": "a } inside"} as asked.')).toEqual({
      confidence: 0.4,
      note: 'a } inside',
    });
    expect(extractJson('first [oops then [1,2] end')).toEqual([1, 2]);
  });

  it('gives undefined when there is no JSON', () => {
    expect(extractJson('no json here')).toBeUndefined();
    expect(extractJson('{"unclosed": 1')).toBeUndefined();
  });
});

describe('parsers', () => {
  it('parse branches with every action type and tolerate missing actions', () => {
    const text = JSON.stringify([
      { thought: 'a', action: { type: 'tool_call', toolName: 'search', arguments: { q: 'x' } } },
      { thought: 'b', action: { type: 'sub-goal', goal: 'g' } },
      { thought: 'c', action: { type: 'response', content: 'r' } },
      { thought: 'd' },
      { nothought: true },
    ]);
    expect(parseBranchList(text, 10)?.map((b) => b.proposedAction.type)).toEqual([
      'tool_call',
      'sub_goal',
      'response',
      'sub_goal',
    ]);
    expect(parseBranchList(text, 2)).toHaveLength(2);
    expect(parseBranchList('[{"x": 1}]', 3)).toBeNull();
  });

  it('parse scores given as numbers or numeric strings, and refuse score-less JSON', () => {
    expect(parseScoreJson('{"confidence": "0.7", "reasoning": "ok"}')).toEqual({ confidence: 0.7, reasoning: 'ok' });
    expect(parseScoreJson('{"verdict": "good"}')).toBeNull();
  });
});
