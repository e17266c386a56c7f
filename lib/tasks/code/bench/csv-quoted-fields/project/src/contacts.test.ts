import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importContacts } from './contacts';

test('contacts are imported with lower-case e-mail addresses', () => {
  const text = 'name,email,company\nAda,ADA@Example.com,Analytical\nNo Mail,,Nowhere';
  assert.deepEqual(importContacts(text), [{ name: 'Ada', email: 'ada@example.com', company: 'Analytical' }]);
});

test('a company name with a comma stays whole', () => {
  const text = 'name,email,company\nBo,bo@example.com,"Widgets, Inc."';
  assert.deepEqual(importContacts(text), [{ name: 'Bo', email: 'bo@example.com', company: 'Widgets, Inc.' }]);
});
