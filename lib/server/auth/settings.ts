/**
 * How this server guards itself, read once from the environment: local mode (one person, loopback) or team mode
 * (accounts, ARBORIST_AUTH=1), the share-link secret, and the origins allowed to send writes.
 * Not responsible for checking requests (guard.ts, principal.ts).
 */
import { isTeamMode, readEnv, type ServerEnv } from '../core/env';

export interface AuthSettings {
  team: boolean;
  /** Signs share links. In local mode a per-process random one (links then last until the server restarts). */
  secret: string;
  /** Origins besides the request's own host that may send writes. */
  allowedOrigins: readonly string[];
  /** Local mode answers any Host (ARBORIST_ALLOW_OPEN=1); else only loopback names and the allowed origins' hosts. */
  allowOpen: boolean;
}

let localSecret: string | null = null;

export function authSettings(env: ServerEnv = readEnv()): AuthSettings {
  localSecret ??= globalThis.crypto.randomUUID() + globalThis.crypto.randomUUID();
  return {
    team: isTeamMode(env),
    secret: env.ARBORIST_SECRET ?? localSecret,
    allowedOrigins: env.ARBORIST_ALLOWED_ORIGINS,
    allowOpen: env.ARBORIST_ALLOW_OPEN === '1',
  };
}
