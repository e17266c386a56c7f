import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getSetting, readSetting } from './store';

const store = new Map([['theme', 'dark']]);

test('readSetting calls back with the value', (_, done) => {
  readSetting(store, 'theme', (error, value) => {
    assert.equal(error, null);
    assert.equal(value, 'dark');
    done();
  });
});

test('readSetting calls back with an error for a missing key', (_, done) => {
  readSetting(store, 'font', (error) => {
    assert.match(String(error), /no setting "font"/);
    done();
  });
});

test('getSetting resolves the value, or the fallback when the key is missing', async () => {
  assert.equal(await getSetting(store, 'theme', 'light'), 'dark');
  assert.equal(await getSetting(store, 'font', 'serif'), 'serif');
});
