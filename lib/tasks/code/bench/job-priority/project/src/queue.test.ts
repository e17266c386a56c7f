import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobQueue } from './queue';

function drain(queue: JobQueue): string[] {
  const ids: string[] = [];
  for (let job = queue.next(); job; job = queue.next()) ids.push(job.id);
  return ids;
}

test('jobs of equal priority run in the order they came', () => {
  const queue = new JobQueue();
  for (const id of ['a', 'b', 'c']) queue.push({ id });
  assert.equal(queue.size, 3);
  assert.deepEqual(drain(queue), ['a', 'b', 'c']);
});

test('a job with a higher priority runs first', () => {
  const queue = new JobQueue();
  queue.push({ id: 'lint' });
  queue.push({ id: 'hotfix', priority: 5 });
  queue.push({ id: 'docs', priority: -1 });
  queue.push({ id: 'test' });
  assert.deepEqual(drain(queue), ['hotfix', 'lint', 'test', 'docs']);
});
