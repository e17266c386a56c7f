// A batch's body: the three shapes a client may send, the size cap counted as the bytes arrive, and an item's
// fingerprint (the same item with its keys in another order is the same item).
import { describe, expect, it } from 'vitest';
import { readBody, splitBatch } from './body';
import { itemHash } from './canonical';
import { isIngestRefusal } from './refusal';

function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isIngestRefusal(error)) return { status: error.status, ...error.body };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('splitBatch', () => {
  it('takes a JSON array, {"items": [...]}, and NDJSON with blank lines', () => {
    expect(splitBatch('[{"seq":1}]', false)).toEqual([{ seq: 1 }]);
    expect(splitBatch('{"items":[{"seq":1},{"seq":2}]}', false)).toEqual([{ seq: 1 }, { seq: 2 }]);
    expect(splitBatch('{"seq":1}\n\n{"seq":2}\r\n', true)).toEqual([{ seq: 1 }, { seq: 2 }]);
  });

  it('names the NDJSON line that is not JSON, as the item it would have been', () => {
    const answer = refusalOf(() => splitBatch('{"seq":1}\n\n{"seq":\n', true));
    expect(answer).toMatchObject({ status: 400, error: 'invalid', issues: [{ path: 'items[1]' }] });
    expect(answer.message).toContain('line 3 is not JSON');
  });

  it('refuses a body of another shape', () => {
    expect(refusalOf(() => splitBatch('{"seq":1}', false))).toMatchObject({
      status: 400,
      issues: [{ path: '(body)' }],
    });
  });
});

describe('readBody', () => {
  it('stops reading past the cap, whatever Content-Length says', async () => {
    const big = new Request('http://localhost/x', { method: 'POST', body: 'x'.repeat(2_000) });
    await expect(readBody(big, 1_000)).rejects.toMatchObject({ status: 413 });
    const small = new Request('http://localhost/x', { method: 'POST', body: 'x'.repeat(500) });
    expect(await readBody(small, 1_000)).toHaveLength(500);
  });
});

describe('itemHash', () => {
  it('is the same for the same item with its keys in another order, and differs for another item', () => {
    expect(itemHash({ seq: 1, op: 'node', id: 'a', parent: null })).toBe(
      itemHash({ parent: null, id: 'a', op: 'node', seq: 1 }),
    );
    expect(itemHash({ seq: 1, op: 'node', id: 'a', parent: null })).not.toBe(
      itemHash({ seq: 1, op: 'node', id: 'b', parent: null }),
    );
  });
});
