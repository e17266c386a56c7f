/**
 * Who a request is: in local mode always the local person; in team mode a user by API key (Authorization: Bearer)
 * or session cookie, else a share link's holder by the share cookie, else anonymous. A bearer key that is wrong is
 * anonymous, not a fall-through to cookies: a script should learn its key is bad.
 * Not responsible for what each may do (lib/contract/access.ts) nor for Origin checks (guard.ts).
 */
import type { Principal } from '../../contract/access';
import type { Db } from '../db/client';
import { userForApiKey } from './api-keys';
import { readCookie, SESSION_COOKIE, SHARE_COOKIE } from './cookies';
import { userForSession } from './sessions';
import type { AuthSettings } from './settings';
import { resolveAnyShareToken } from './share-links';
import type { UserRecord } from './users';

export function userPrincipal(user: UserRecord): Principal {
  return { kind: 'user', id: user.id, email: user.email, name: user.name, role: user.role };
}

export async function principalFor(
  db: Db,
  settings: AuthSettings,
  headers: Headers,
  now = new Date(),
): Promise<Principal> {
  if (!settings.team) return { kind: 'local' };
  const authorization = headers.get('authorization');
  if (authorization) {
    const key = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const user = key ? await userForApiKey(db, key, now) : null;
    return user ? userPrincipal(user) : { kind: 'anonymous' };
  }
  const session = readCookie(headers, SESSION_COOKIE);
  if (session) {
    const user = await userForSession(db, session, now);
    if (user) return userPrincipal(user);
  }
  const share = readCookie(headers, SHARE_COOKIE);
  if (share) {
    const link = await resolveAnyShareToken(db, settings.secret, share, now);
    if (link && 'run' in link) {
      const { id, runId, allowPrompts } = link.run;
      return { kind: 'share', linkId: id, runId, experimentId: null, allowPrompts };
    }
    if (link) {
      return {
        kind: 'share',
        linkId: link.experiment.id,
        runId: null,
        experimentId: link.experiment.experimentId,
        allowPrompts: false,
      };
    }
  }
  return { kind: 'anonymous' };
}
