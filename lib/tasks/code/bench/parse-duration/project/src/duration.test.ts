import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from './duration';

test('a single unit', () => {
  assert.equal(parseDuration('90s'), 90_000);
  assert.equal(parseDuration('2h'), 7_200_000);
});

test('several units add up', () => {
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('2h 5m 10s'), 7_510_000);
});

test('text that is not a duration is rejected', () => {
  assert.throws(() => parseDuration('soon'), SyntaxError);
  assert.throws(() => parseDuration('10 minutes'), SyntaxError);
});

test('formatDuration writes what parseDuration reads', () => {
  assert.equal(formatDuration(5_400_000), '1h30m');
  assert.equal(formatDuration(0), '0s');
  for (const text of ['45s', '1h', '3h2m1s']) assert.equal(formatDuration(parseDuration(text)), text);
});
