/**
 * Test support for specs that run their own production server (a crash, a different environment): a free port,
 * `next start` run by node directly (so the PID we kill is the server itself), and a wait until it answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nobody listens on now, so no other copy of a test can answer for our server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: 'ignore',
  });
}

export async function waitUntilUp(server: ChildProcess, base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}
