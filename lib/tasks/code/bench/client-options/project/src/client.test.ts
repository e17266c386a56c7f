import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, urlOf } from './client';

test('a client takes its settings as named options, with defaults', () => {
  const client = createClient({ baseUrl: 'https://example.com/', retries: 2 });
  assert.deepEqual(client, {
    baseUrl: 'https://example.com',
    timeoutMs: 5_000,
    retries: 2,
    headers: { 'user-agent': 'arborist' },
  });
});

test('urlOf joins with exactly one slash', () => {
  const client = createClient({ baseUrl: 'https://example.com' });
  assert.equal(urlOf(client, '/v1/items'), 'https://example.com/v1/items');
  assert.equal(urlOf(client, 'v1/items'), 'https://example.com/v1/items');
});
