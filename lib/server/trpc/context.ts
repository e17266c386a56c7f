/**
 * The tRPC context: the server's services, who is asking (a Principal: the local person, a user, a share link's
 * holder, or nobody), the name their commands are recorded under, and the response headers (sign-in sets a cookie).
 * createContextInner is pure, so tests call routers with createCaller against their own services and any principal,
 * no HTTP.
 * Not responsible for creating the services (services.ts) nor for finding out who asks (auth/principal.ts).
 */
import { actorName, type Principal } from '../../contract/access';
import type { AuthSettings } from '../auth/settings';
import type { ServerServices } from '../services';

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

export interface ContextOptions {
  who?: Principal;
  /** How this server guards itself (auth/settings.ts): always the caller's, never a default with a known secret. */
  auth: AuthSettings;
  /** Local mode only: the name the browser sends (x-arborist-actor). Team mode records the user. */
  actor?: string;
  requestHeaders?: Headers | null;
  resHeaders?: Headers | null;
  secure?: boolean;
}

export function createContextInner(services: ServerServices, options: ContextOptions): Context {
  const who = options.who ?? { kind: 'local' };
  return {
    ...services,
    who,
    auth: options.auth,
    actor: who.kind === 'local' && options.actor ? options.actor : actorName(who),
    requestHeaders: options.requestHeaders ?? null,
    resHeaders: options.resHeaders ?? null,
    secure: options.secure ?? false,
  };
}
