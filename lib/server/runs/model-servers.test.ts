/**
 * Model servers are the operator's choice: which addresses count as public, who may type a custom base URL (local
 * mode: anyone; team mode: admins, to public addresses only, however the address is spelt or resolved), listed
 * servers by id, and the connect-time guard that closes the DNS-rebinding gap (against a real local server, which
 * must never see the request).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../contract/model-spec';
import { ModelError } from '../../models/index';
import { type FakeOpenAIServer, completionBody, startFakeOpenAI } from '../../models/testing';
import { readEnv } from '../core/env';
import { createModel } from './model-factory';
import { OpenAIModel } from '../../models/index';
import {
  type ResolveHost,
  checkModelSpecAllowed,
  guardedFetch,
  isPublicAddress,
  publicOnlyFetch,
} from './model-servers';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI(() => ({ json: completionBody('hello') }));
  servers.push(server);
  return server;
}

const LISTED = JSON.stringify([
  { id: 'vllm', label: 'vLLM on gpu-box', baseURL: 'http://10.0.0.5:8000/v1', models: ['qwen2.5-7b'] },
]);
const env = readEnv({ ARBORIST_MODEL_SERVERS: LISTED });

const custom = (baseURL: string): ModelSpec => ({ provider: 'openai', baseUrlPreset: 'custom', baseURL, model: 'm' });

/** A resolver that answers from a table (unknown names fail like ENOTFOUND). */
const resolver =
  (table: Record<string, string[]>): ResolveHost =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };

const admin = { team: true, admin: true, env, resolve: resolver({}) };

async function refusal(spec: ModelSpec, context = admin): Promise<Error> {
  const error = await checkModelSpecAllowed(spec, context).then(
    () => null,
    (e: unknown) => e as Error,
  );
  if (!error) throw new Error(`expected ${JSON.stringify(spec)} to be refused`);
  return error;
}

describe('isPublicAddress', () => {
  it('passes plain unicast only', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '[2606:4700::1111]']) {
      expect(isPublicAddress(a), a).toBe(true);
    }
    const refused = [
      '127.0.0.1', // loopback
      '10.1.2.3', // private
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254', // link-local (cloud metadata)
      '100.64.0.1', // CGNAT
      '0.0.0.0', // unspecified
      '224.0.0.1', // multicast
      '255.255.255.255',
      '240.0.0.1', // reserved
      '198.18.0.1', // benchmarking
      '::1',
      '::',
      'fc00::1', // unique local
      'fd12:3456::1',
      'fe80::1', // link-local
      '::ffff:127.0.0.1', // IPv4-mapped loopback
      '::ffff:a9fe:a9fe', // IPv4-mapped 169.254.169.254
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      'not-an-address',
    ];
    for (const a of refused) expect(isPublicAddress(a), a).toBe(false);
  });
});

describe('checkModelSpecAllowed', () => {
  it('local mode allows any custom URL, loopback included; other providers are never checked', async () => {
    const local = { team: false, admin: false, env };
    await expect(checkModelSpecAllowed(custom('http://localhost:11434/v1'), local)).resolves.toBeUndefined();
    await expect(checkModelSpecAllowed(custom('http://127.0.0.1:8000/v1'), local)).resolves.toBeUndefined();
    await expect(
      checkModelSpecAllowed({ provider: 'simulated', seed: 1, latencyMs: 0 }, { ...local, team: true }),
    ).resolves.toBeUndefined();
  });

  it('team mode: a custom URL is forbidden to a non-admin, whatever its address', async () => {
    const error = await refusal(custom('https://api.example.com/v1'), { ...admin, admin: false });
    expect(error.name).toBe('ForbiddenError');
    expect(error.message).toMatch(/custom model server is for admins.*listed servers/);
  });

  it("team mode: an admin's custom URL to a non-public IP is refused, however it is spelt", async () => {
    const spellings = [
      'http://127.0.0.1:8000/v1',
      'http://2130706433/v1', // decimal
      'http://0x7f.1/v1', // hex
      'http://0177.0.0.1/v1', // octal
      'http://127.1/v1', // short form
      'http://[::1]:8000/v1',
      'http://[::ffff:127.0.0.1]/v1',
      'http://169.254.169.254/latest',
      'http://[::ffff:a9fe:a9fe]/v1',
      'http://10.0.0.7/v1',
      'http://100.64.1.1/v1',
      'http://0.0.0.0:8000/v1',
    ];
    for (const url of spellings) {
      const error = await refusal(custom(url));
      expect(error.name, url).toBe('InputError');
      expect((error as Error & { field: string }).field).toBe('model.baseURL');
      expect(error.message).toMatch(/private, loopback, link-local or reserved address/);
    }
  });

  it('team mode: a host name is judged by every address it resolves to', async () => {
    const resolve = resolver({
      localhost: ['127.0.0.1', '::1'],
      'internal.example': ['10.0.0.9'],
      'mixed.example': ['93.184.215.14', '192.168.0.10'],
      'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    const context = { ...admin, resolve };
    for (const host of ['localhost', 'internal.example', 'mixed.example']) {
      const error = await refusal(custom(`http://${host}:8000/v1`), context);
      expect(error.message, host).toMatch(/resolves to .* private, loopback, link-local or reserved address/);
    }
    await expect(checkModelSpecAllowed(custom('https://public.example/v1'), context)).resolves.toBeUndefined();
    await expect(checkModelSpecAllowed(custom('https://8.8.8.8/v1'), context)).resolves.toBeUndefined();
    const unknown = await refusal(custom('https://nowhere.example/v1'), context);
    expect(unknown.message).toMatch(/could not be resolved/);
  });

  it("team mode: a listed server's origin is allowed as a custom URL though private (the list is explicit)", async () => {
    await expect(checkModelSpecAllowed(custom('http://10.0.0.5:8000/v1'), admin)).resolves.toBeUndefined();
    // another port of the same host is another origin
    await refusal(custom('http://10.0.0.5:9000/v1'));
  });

  it('a listed server must exist, and its model must be one it offers', async () => {
    const listed = (serverId: string, model: string): ModelSpec => ({
      provider: 'openai',
      baseUrlPreset: 'server',
      serverId,
      model,
    });
    const member = { ...admin, admin: false };
    await expect(checkModelSpecAllowed(listed('vllm', 'qwen2.5-7b'), member)).resolves.toBeUndefined();
    const missing = await refusal(listed('nope', 'qwen2.5-7b'), member);
    expect(missing.message).toMatch(/no model server "nope" is listed/);
    const model = await refusal(listed('vllm', 'gpt-4o'), member);
    expect((model as Error & { field: string }).field).toBe('model.model');
    expect(model.message).toMatch(/offers qwen2.5-7b/);
  });
});

describe('the connect-time guard (DNS rebinding)', () => {
  it('publicOnlyFetch refuses an IP-literal loopback and a name that resolves to loopback, before any request', async () => {
    const server = await serve();
    const port = new URL(server.baseURL).port;
    for (const url of [
      `http://127.0.0.1:${port}/v1/chat/completions`,
      `http://localhost:${port}/v1/chat/completions`,
    ]) {
      const error = await publicOnlyFetch(url, { method: 'POST', body: '{}' }).then(
        () => null,
        (e: unknown) => e as Error & { cause?: { code?: string } },
      );
      expect(error?.cause?.code, url).toBe('ARBORIST_PRIVATE_ADDRESS');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a team-mode custom URL that passed no check still never reaches a private address; local mode reaches it', async () => {
    const server = await serve();
    const url = server.baseURL.replace('127.0.0.1', 'localhost');
    const spec = custom(url);
    const ask = { purpose: 'generate' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
    const team = createModel(spec, { env, team: true, openai: { sleep: async () => undefined } });
    const error = await team.complete(ask).then(
      () => null,
      (e: unknown) => e as ModelError,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe('unreachable');
    expect(error?.attempts).toBe(1); // not retried: it cannot succeed
    expect(error?.message).toMatch(/private, loopback or reserved address/);
    expect(server.requests).toHaveLength(0);

    const local = createModel(spec, { env, team: false });
    await expect(local.complete(ask)).resolves.toMatchObject({ text: 'hello' });
    expect(server.requests).toHaveLength(1);
  });

  it("the guarded transport carries a whole call, its error statuses and its abort like the default fetch's", async () => {
    // the same transport with a rule that lets loopback through, so a local server can answer
    const loopbackToo = guardedFetch(() => true);
    const server = await startFakeOpenAI((request) =>
      request.body?.model === 'missing'
        ? { status: 404, raw: '<html>gone</html>', contentType: 'text/html' }
        : request.body?.model === 'slow'
          ? { hang: true }
          : { json: completionBody('hello') },
    );
    servers.push(server);
    const model = (name: string) =>
      new OpenAIModel({ baseURL: server.baseURL, model: name, fetch: loopbackToo, sleep: async () => undefined });
    const ask = { purpose: 'generate' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
    await expect(model('m').complete(ask)).resolves.toMatchObject({ text: 'hello' });
    await expect(model('missing').complete(ask)).rejects.toMatchObject({ kind: 'rejected', status: 404 });
    const controller = new AbortController();
    const closed = server.nextEarlyClose();
    const pending = model('slow').complete({ ...ask, signal: controller.signal });
    await expect.poll(() => server.requests.length).toBe(3);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await closed;
  });
});
