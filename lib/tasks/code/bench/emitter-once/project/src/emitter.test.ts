import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from './emitter';

type Events = { progress: number; done: string };

test('on calls the listener for every event until it is turned off', () => {
  const emitter = new Emitter<Events>();
  const seen: number[] = [];
  const off = emitter.on('progress', (n) => seen.push(n));
  emitter.emit('progress', 1);
  emitter.emit('progress', 2);
  off();
  emitter.emit('progress', 3);
  assert.deepEqual(seen, [1, 2]);
});

test('turning one listener off leaves the others', () => {
  const emitter = new Emitter<Events>();
  const seen: string[] = [];
  const off = emitter.on('progress', (n) => seen.push(`first ${n}`));
  emitter.on('progress', (n) => seen.push(`second ${n}`));
  off();
  emitter.emit('progress', 1);
  assert.deepEqual(seen, ['second 1']);
});

test('once calls the listener for the first event only, then removes it', () => {
  const emitter = new Emitter<Events>();
  const seen: string[] = [];
  emitter.once('done', (text) => seen.push(text));
  emitter.on('done', (text) => seen.push(`always ${text}`));
  emitter.emit('done', 'a');
  emitter.emit('done', 'b');
  assert.deepEqual(seen, ['a', 'always a', 'always b']);
  assert.equal(emitter.listenerCount('done'), 1);
});

test('a once listener can be turned off before it fires', () => {
  const emitter = new Emitter<Events>();
  let calls = 0;
  const off = emitter.once('done', () => calls++);
  off();
  emitter.emit('done', 'x');
  assert.equal(calls, 0);
});
