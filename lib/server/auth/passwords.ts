/**
 * Passwords, hashed with scrypt from node:crypto: memory-hard, a standard (RFC 7914), built into Node, so nothing
 * native to compile or download (argon2's prebuilt binaries come from GitHub, which these machines cannot reach) and
 * it runs on libuv's thread pool, never on the event loop. Stored as "scrypt$N$r$p$salt$hash" so the cost can be
 * raised later and old hashes still verify.
 * Not responsible for users (users.ts) nor for password rules beyond length (lib/contract/access.ts).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * One of OWASP's equivalent scrypt settings (N=2^15, r=8, p=3): as strong as its N=2^17, p=1 row with a quarter of
 * the memory (32 MiB a hash), so a burst of sign-ins cannot take the server's memory.
 */
const COST = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes, or scrypt refuses the cost
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptOptions = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored value that is not one of our hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Compared against when the email is unknown, so a wrong email takes as long as a wrong password. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not a password of anyone');
  return dummyHash;
}
