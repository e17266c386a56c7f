/**
 * Whether a listen address is loopback (reachable from this machine only): the one fact `npm start` needs to
 * decide whether serving without sign-in is safe.
 * Not responsible for starting the server (start.ts).
 */
import { isIP } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1';
  return false;
}
