// `npm start`'s refusals, as a person meets them: a real process through tsx, its exit code and its one line. Both
// stop before anything is migrated, built or served.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './auth/listen';

const run = promisify(execFile);

async function start(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['--import', 'tsx', 'lib/server/start.ts'], {
      env: { ...process.env, DATABASE_URL: 'file:./data/never-made.db', ...env },
      timeout: 30_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('npm start', () => {
  it('refuses to listen beyond loopback without sign-in, and says the two ways out', async () => {
    const { code, stderr } = await start({ HOST: '0.0.0.0', ARBORIST_AUTH: '', ARBORIST_ALLOW_OPEN: '' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/HOST=0\.0\.0\.0 would let anyone .*ARBORIST_AUTH=1.*ARBORIST_ALLOW_OPEN=1/);
  });

  it('refuses team mode without a long enough secret, naming the variable and not the value', async () => {
    const { code, stderr } = await start({ ARBORIST_AUTH: '1', ARBORIST_SECRET: 'too-short-SECRET' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/ARBORIST_SECRET: team mode .* at least 32 characters/);
    expect(stderr).not.toContain('too-short-SECRET');
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback addresses and names from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', '10.0.0.1', 'example.com', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
