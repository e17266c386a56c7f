import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCard } from './card';
import { titleCase } from './title';

test('a title keeps short joining words lower-case', () => {
  assert.equal(titleCase('the LORD of the rings'), 'The Lord of the Rings');
});

test('a card has a capitalized heading and a short summary', () => {
  const card = toCard(' release notes ', 'This release makes the search twice as fast on large trees.');
  assert.deepEqual(card, { heading: 'Release notes', summary: 'This release makes the search twice...' });
});
