import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiClient, filesClient, telemetryClient } from './services';

test('the API client waits 10 s and retries 3 times', () => {
  assert.equal(apiClient.baseUrl, 'https://api.example.com');
  assert.equal(apiClient.timeoutMs, 10_000);
  assert.equal(apiClient.retries, 3);
});

test('the files client waits 30 s and retries 3 times', () => {
  assert.equal(filesClient.timeoutMs, 30_000);
  assert.equal(filesClient.retries, 3);
});

test('telemetry has its own user agent and never retries', () => {
  assert.equal(telemetryClient.headers['user-agent'], 'arborist-telemetry');
  assert.equal(telemetryClient.retries, 0);
});
