import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './app';

test('startApp reads the theme and the language', async () => {
  const state = await startApp(new Map([['theme', 'dark'], ['language', 'fr']]));
  assert.deepEqual(state, { theme: 'dark', language: 'fr' });
});

test('startApp falls back to the defaults for missing settings', async () => {
  assert.deepEqual(await startApp(new Map([['language', 'de']])), { theme: 'light', language: 'de' });
  assert.deepEqual(await startApp(new Map()), { theme: 'light', language: 'en' });
});
