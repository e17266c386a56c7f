/**
 * The server's environment: defaults, the OpenAI settings, and ARBORIST_PRICES merged over the default prices,
 * with a clear startup error for a bad value (and never a secret in it).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, priceCall } from '../../engine/index';
import { loadPriceTable, readEnv } from './env';

describe('readEnv', () => {
  it('needs nothing: every setting has a default', () => {
    const env = readEnv({});
    expect(env).toMatchObject({
      ARBORIST_MAX_CONCURRENT_RUNS: 4,
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      ARBORIST_DEFAULT_MODEL: 'gpt-4o-mini',
    });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.ARBORIST_PRICES).toBeUndefined();
    expect(loadPriceTable(env)).toEqual(DEFAULT_PRICES);
  });

  it('reads ARBORIST_MODEL_SERVER_MAX_CALLS: 16 unless the operator says, refused unless a whole number >= 1', () => {
    expect(readEnv({}).ARBORIST_MODEL_SERVER_MAX_CALLS).toBe(16);
    expect(readEnv({ ARBORIST_MODEL_SERVER_MAX_CALLS: '4' }).ARBORIST_MODEL_SERVER_MAX_CALLS).toBe(4);
    for (const bad of ['0', '2.5', 'many']) {
      expect(() => readEnv({ ARBORIST_MODEL_SERVER_MAX_CALLS: bad })).toThrow(/ARBORIST_MODEL_SERVER_MAX_CALLS: /);
    }
  });

  it('reads the OpenAI settings; an empty variable is an unset one', () => {
    const env = readEnv({
      OPENAI_API_KEY: 'sk-test-SECRET-1234',
      OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
      ARBORIST_DEFAULT_MODEL: 'Qwen/Qwen2.5-7B-Instruct',
    });
    expect(env.OPENAI_API_KEY).toBe('sk-test-SECRET-1234');
    expect(env.OPENAI_BASE_URL).toBe('http://127.0.0.1:8000/v1');
    expect(env.ARBORIST_DEFAULT_MODEL).toBe('Qwen/Qwen2.5-7B-Instruct');
    const empty = readEnv({ OPENAI_API_KEY: '', OPENAI_BASE_URL: ' ', ARBORIST_PRICES: '' });
    expect(empty.OPENAI_API_KEY).toBeUndefined();
    expect(empty.OPENAI_BASE_URL).toBe('https://api.openai.com/v1');
    expect(empty.ARBORIST_PRICES).toBeUndefined();
  });

  it('merges ARBORIST_PRICES over the default prices', () => {
    const env = readEnv({
      ARBORIST_PRICES: JSON.stringify({
        'my-llm': { inputPerMillion: 0.2, outputPerMillion: 0.8 },
        'gpt-4o': { inputPerMillion: 2, outputPerMillion: 8 },
      }),
    });
    const table = loadPriceTable(env);
    expect(table['my-llm']).toEqual({ inputPerMillion: 0.2, outputPerMillion: 0.8 });
    expect(table['gpt-4o']).toEqual({ inputPerMillion: 2, outputPerMillion: 8 });
    expect(table['gpt-4o-mini']).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    // a dated name finds its family's price; a model nobody priced stays unpriced
    expect(priceCall('my-llm-2025-01', { inputTokens: 1_000_000, outputTokens: 0 }, table)).toBeCloseTo(0.2);
    expect(priceCall('other-llm', { inputTokens: 10, outputTokens: 10 }, table)).toBeNull();
  });

  it('refuses a bad price table at startup, saying what is wrong', () => {
    const bad: [string, RegExp][] = [
      ['{not json', /^Invalid environment: ARBORIST_PRICES: is not JSON: expected e\.g\. \{"my-model"/],
      ['[1, 2]', /ARBORIST_PRICES: /],
      ['{"m": {"inputPerMillion": -1, "outputPerMillion": 1}}', /ARBORIST_PRICES\.m\.inputPerMillion: /],
      ['{"m": {"inputPerMillion": 1}}', /ARBORIST_PRICES\.m\.outputPerMillion: /],
      ['{"m": {"inputPerMillion": 1, "outputPerMillion": 1, "perCall": 3}}', /ARBORIST_PRICES\.m: .*perCall/],
      ['{"m": {"inputPerMillion": "1", "outputPerMillion": 1}}', /ARBORIST_PRICES\.m\.inputPerMillion: /],
    ];
    for (const [value, message] of bad) expect(() => readEnv({ ARBORIST_PRICES: value })).toThrow(message);
  });

  it('refuses a base URL that is not http(s), without echoing any value', () => {
    const attempt = () => readEnv({ OPENAI_API_KEY: 'sk-test-SECRET-1234', OPENAI_BASE_URL: 'ftp://files.example' });
    expect(attempt).toThrow(/OPENAI_BASE_URL: must be an http\(s\) URL/);
    try {
      attempt();
    } catch (error) {
      expect(String(error)).not.toContain('SECRET');
    }
  });

  it('team mode refuses to start without a long secret, and with half an admin, naming the fix and no value', () => {
    expect(() => readEnv({ ARBORIST_AUTH: '1' })).toThrow(/ARBORIST_SECRET: team mode .* at least 32 characters/);
    expect(() => readEnv({ ARBORIST_AUTH: '1', ARBORIST_SECRET: 'short-SECRET' })).toThrow(/at least 32/);
    const secret = 'x'.repeat(32);
    expect(readEnv({ ARBORIST_AUTH: '1', ARBORIST_SECRET: secret }).ARBORIST_AUTH).toBe('1');
    const half = () => readEnv({ ARBORIST_AUTH: '1', ARBORIST_SECRET: secret, ARBORIST_ADMIN_EMAIL: 'a@b.test' });
    expect(half).toThrow(/set both ARBORIST_ADMIN_EMAIL and ARBORIST_ADMIN_PASSWORD/);
    try {
      readEnv({ ARBORIST_AUTH: '1', ARBORIST_SECRET: 'short-SECRET' });
    } catch (error) {
      expect(String(error)).not.toContain('short-SECRET');
    }
    // local mode needs none of it
    expect(readEnv({}).ARBORIST_AUTH).toBe('0');
  });

  it('reads allowed origins as a list and refuses one with a path', () => {
    expect(
      readEnv({ ARBORIST_ALLOWED_ORIGINS: 'https://a.example, http://b.example:8080' }).ARBORIST_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(() => readEnv({ ARBORIST_ALLOWED_ORIGINS: 'https://a.example/app' })).toThrow(/is not an origin/);
  });

  it('reads the label set (ARBORIST_LABELS) in key order, defaults it, and refuses a set a person could not use', () => {
    expect(readEnv({}).ARBORIST_LABELS).toEqual([
      'good thought',
      'evaluator wrong',
      'should have pruned',
      'hallucinated move',
    ]);
    expect(readEnv({ ARBORIST_LABELS: ' wrong tool , right answer ' }).ARBORIST_LABELS).toEqual([
      'wrong tool',
      'right answer',
    ]);
    expect(() => readEnv({ ARBORIST_LABELS: 'a,b,a' })).toThrow(/ARBORIST_LABELS: the labels must differ/);
    expect(() => readEnv({ ARBORIST_LABELS: 'a,,b' })).toThrow(/ARBORIST_LABELS.1: a label needs a name/);
    expect(() => readEnv({ ARBORIST_LABELS: 'a,b,c,d,e,f,g,h,i,j' })).toThrow(/at most 9 labels/);
    expect(() => readEnv({ ARBORIST_LABELS: 'x'.repeat(41) })).toThrow(/at most 40 characters/);
  });

  it('reads ARBORIST_MODEL_SERVERS with each key from its apiKeyEnv, and says plainly what is wrong', () => {
    const servers = JSON.stringify([
      { id: 'vllm', label: 'vLLM', baseURL: 'http://10.0.0.5:8000/v1', apiKeyEnv: 'VLLM_KEY', models: ['qwen'] },
    ]);
    const env = readEnv({ ARBORIST_MODEL_SERVERS: servers, VLLM_KEY: 'vllm-SECRET-1' });
    expect(env.ARBORIST_MODEL_SERVERS).toEqual([
      {
        id: 'vllm',
        label: 'vLLM',
        baseURL: 'http://10.0.0.5:8000/v1',
        apiKeyEnv: 'VLLM_KEY',
        models: ['qwen'],
        apiKey: 'vllm-SECRET-1',
      },
    ]);
    expect(readEnv({}).ARBORIST_MODEL_SERVERS).toEqual([]);
    const problem = (source: Record<string, string>) => {
      try {
        readEnv(source);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem({ ARBORIST_MODEL_SERVERS: '[{' })).toMatch(/ARBORIST_MODEL_SERVERS: is not JSON: expected e.g./);
    expect(problem({ ARBORIST_MODEL_SERVERS: servers })).toMatch(/server "vllm" names VLLM_KEY, which is not set/);
    const twice = JSON.stringify([
      { id: 'a', label: 'A', baseURL: 'http://h/v1' },
      { id: 'a', label: 'B', baseURL: 'http://i/v1' },
    ]);
    expect(problem({ ARBORIST_MODEL_SERVERS: twice })).toMatch(/"a" is listed twice/);
    const keyInURL = JSON.stringify([{ id: 'a', label: 'A', baseURL: 'http://user:SECRET@h/v1' }]);
    const message = problem({ ARBORIST_MODEL_SERVERS: keyInURL });
    expect(message).toMatch(/ARBORIST_MODEL_SERVERS.0.baseURL: carries no credentials/);
    expect(message).not.toContain('SECRET');
    expect(problem({ ARBORIST_DAILY_BUDGET_USD: '-1' })).toMatch(/ARBORIST_DAILY_BUDGET_USD/);
    expect(readEnv({ ARBORIST_DAILY_BUDGET_USD: '2.5' }).ARBORIST_DAILY_BUDGET_USD).toBe(2.5);
  });

  it('reads ARBORIST_VERIFY_CONCURRENCY as a whole number from 1, unset meaning the machine decides', () => {
    expect(readEnv({}).ARBORIST_VERIFY_CONCURRENCY).toBeUndefined();
    expect(readEnv({ ARBORIST_VERIFY_CONCURRENCY: '2' }).ARBORIST_VERIFY_CONCURRENCY).toBe(2);
    expect(() => readEnv({ ARBORIST_VERIFY_CONCURRENCY: '0' })).toThrow(/ARBORIST_VERIFY_CONCURRENCY/);
    expect(() => readEnv({ ARBORIST_VERIFY_CONCURRENCY: 'many' })).toThrow(/ARBORIST_VERIFY_CONCURRENCY/);
  });
});

describe('the cluster settings', () => {
  it('default to a 15 s lease renewed every third of it, a 10 s shutdown, and no fixed instance name', async () => {
    const { clusterTimings } = await import('./env');
    const env = readEnv({});
    expect(env.ARBORIST_INSTANCE_ID).toBeUndefined();
    expect(env.ARBORIST_SHUTDOWN_MS).toBe(10_000);
    expect(env.ARBORIST_LOG_FORMAT).toBeUndefined();
    expect(clusterTimings(env)).toEqual({ leaseMs: 15_000, heartbeatMs: 5_000 });
    expect(clusterTimings(readEnv({ ARBORIST_LEASE_MS: '3000', ARBORIST_HEARTBEAT_MS: '500' }))).toEqual({
      leaseMs: 3_000,
      heartbeatMs: 500,
    });
  });

  it('refuse a lease under 1 s, a heartbeat not shorter than the lease, and an unknown log format', () => {
    expect(() => readEnv({ ARBORIST_LEASE_MS: '500' })).toThrow(/ARBORIST_LEASE_MS/);
    expect(() => readEnv({ ARBORIST_LEASE_MS: '2000', ARBORIST_HEARTBEAT_MS: '2000' })).toThrow(
      /ARBORIST_HEARTBEAT_MS: must be shorter than ARBORIST_LEASE_MS/,
    );
    expect(() => readEnv({ ARBORIST_LOG_FORMAT: 'xml' })).toThrow(/ARBORIST_LOG_FORMAT/);
    expect(() => readEnv({ ARBORIST_INSTANCE_ID: 'has space' })).toThrow(/ARBORIST_INSTANCE_ID/);
  });
});
