import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify, uniqueSlug } from './slug';

test('punctuation and spaces become single dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('  10 tips -- for  TypeScript  '), '10-tips-for-typescript');
});

test('a slug is ASCII only: letters with no ASCII base are dropped', () => {
  assert.equal(slugify('π day 2024'), 'day-2024');
});

test('accented letters keep their base letter', () => {
  assert.equal(slugify('Crème Brûlée, at Home!'), 'creme-brulee-at-home');
  assert.equal(slugify('Ångström café'), 'angstrom-cafe');
});

test('a taken slug gets the next free number', () => {
  assert.equal(uniqueSlug('My Post', new Set()), 'my-post');
  assert.equal(uniqueSlug('My Post', new Set(['my-post', 'my-post-2'])), 'my-post-3');
  assert.equal(uniqueSlug('¿?', new Set()), 'untitled');
});
