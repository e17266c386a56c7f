/**
 * The tRPC context: the server's services, who is asking (a Principal: the local person, a user, a share link's
 * holder, or nobody), the name their commands are recorded under, and the response headers (sign-in sets a cookie).
 * createContextInner is pure, so tests call routers with createCaller against their own services and any principal,
 * no HTTP.
 * Not responsible for creating the services (services.ts) nor for finding out who asks (auth/principal.ts).
 */
import { actorName, type Principal } from '../../contract/access';
import type { AuthSettings } from '../auth/settings';
import type { PrismaClient } from '../db/client';
import type { EventBus } from '../event-bus';
import type { RunManager } from '../run-manager';

export interface ServerServices {
  prisma: PrismaClient;
  bus: EventBus;
  manager: RunManager;
}

export interface Context extends ServerServices {
  who: Principal;
  auth: AuthSettings;
  /** Who is acting, recorded with each command: the signed-in user's email; in local mode a name the browser sends. */
  actor: string;
  /** Headers of the HTTP request (null outside HTTP): sign-out reads the session cookie it ends. */
  requestHeaders: Headers | null;
  /** Headers of the HTTP response (null outside HTTP): sign-in and sign-out set the session cookie here. */
  resHeaders: Headers | null;
  /** Whether the request came over HTTPS (the session cookie is then Secure). */
  secure: boolean;
}

/** Local mode's settings, for tests and callers that do not care. */
export const LOCAL_AUTH: AuthSettings = {
  team: false,
  secret: 'local mode signs share links with a per-process secret; tests use this one',
  allowedOrigins: [],
  allowOpen: false,
};

export interface ContextOptions {
  who?: Principal;
  auth?: AuthSettings;
  /** Local mode only: the name the browser sends (x-arborist-actor). Team mode records the user. */
  actor?: string;
  requestHeaders?: Headers | null;
  resHeaders?: Headers | null;
  secure?: boolean;
}

export function createContextInner(services: ServerServices, options: ContextOptions = {}): Context {
  const who = options.who ?? { kind: 'local' };
  return {
    ...services,
    who,
    auth: options.auth ?? LOCAL_AUTH,
    actor: who.kind === 'local' && options.actor ? options.actor : actorName(who),
    requestHeaders: options.requestHeaders ?? null,
    resHeaders: options.resHeaders ?? null,
    secure: options.secure ?? false,
  };
}

/** Names are shown in the event log, so they are short plain text. */
export function actorFromHeader(value: string | null): string {
  const name = (value ?? '')
    .replace(/[^\p{L}\p{N} ._@-]/gu, '')
    .trim()
    .slice(0, 40);
  return name || 'person';
}
