/**
 * Test support: a tRPC context in local mode for router tests (createCaller, no HTTP). Its share-link secret is a
 * fixed test value, which is why it lives here and never in production code (the server always passes the settings it
 * read from its environment, auth/settings.ts).
 * TEST_TEAM_AUTH is team mode's settings with such a secret, for the tests that call routers as users and link holders.
 */
import type { AuthSettings } from '../auth/settings';
import { type Context, type ContextOptions, createContextInner } from '../trpc/context';
import type { ServerServices } from '../services';

/** Local mode, with a known secret: tests only. */
export const TEST_LOCAL_AUTH: AuthSettings = {
  team: false,
  secret: 'a fixed test secret: never a production default (lib/server/testing/context.ts)',
  allowedOrigins: [],
  allowOpen: false,
};

/** Team mode (accounts, roles, share links), with a known secret: tests only. */
export const TEST_TEAM_AUTH: AuthSettings = {
  team: true,
  secret: 'a test secret that is long enough to sign links',
  allowedOrigins: [],
  allowOpen: false,
};

/** A local-mode context over the test's services; `options` may name another principal or settings. */
export function testContext(services: ServerServices, options: Partial<ContextOptions> = {}): Context {
  return createContextInner(services, { auth: TEST_LOCAL_AUTH, ...options });
}
