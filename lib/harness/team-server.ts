/**
 * The team-mode test server's settings, shared by playwright.config.ts (which starts it) and e2e/team (which signs
 * in to it): its port (one above E2E_PORT), a fixed test secret and the first admin made from the environment.
 * Test values only: they sign nothing but the test server's own share links and sessions.
 * Not responsible for starting the server (playwright.config.ts) nor for the tests' API helpers (e2e/team/team.ts).
 */

/** The local e2e server's port (E2E_PORT, 3100 unless set); the team server takes the next one. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const TEAM_PORT = E2E_PORT + 1;
export const TEAM_BASE = `http://127.0.0.1:${TEAM_PORT}`;
/** Team mode needs a secret of 32+ characters. */
export const TEAM_SECRET = 'e2e-team-secret-0123456789abcdef0123456789';
export const TEAM_ADMIN = { email: 'admin@e2e.test', password: 'admin-password-e2e' } as const;

/** The environment that turns the team server on (lib/server/env.ts reads it). */
export const TEAM_ENV: Record<string, string> = {
  ARBORIST_AUTH: '1',
  ARBORIST_SECRET: TEAM_SECRET,
  ARBORIST_ADMIN_EMAIL: TEAM_ADMIN.email,
  ARBORIST_ADMIN_PASSWORD: TEAM_ADMIN.password,
};
