// Team mode's one-time setup code on real SQLite and real PostgreSQL: stored as its HMAC (never the code), accepted
// once, refused after; a wrong code refused; on SQLite a restart's code replaces the last (one process: the last
// printed is the one that works), on PostgreSQL every instance's code works until the first admin exists.
import { describe, expect, it } from 'vitest';
import { domainErrorKind } from '../core/errors';
import { BACKENDS, sharedTestDb } from '../testing/db';
import { completeSetup, prepareTeamMode, setupNeeded } from './setup';

const SECRET = 'a test secret that is long enough to sign links';
const ENV = { ARBORIST_SECRET: SECRET };
const admin = { email: 'first@team.test', password: 'correct horse battery' };

/** Starts team mode on `db` and returns the code its log line printed. */
async function printedCode(db: Parameters<typeof prepareTeamMode>[0]): Promise<string> {
  const lines: string[] = [];
  await prepareTeamMode(db, ENV, (line) => lines.push(line));
  const code = /enter the code (\S+) to make/.exec(lines.join('\n'))?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(lines)}`);
  return code;
}

const refusal = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'accepted',
    (error: unknown) => domainErrorKind(error) ?? `failed: ${String(error)}`,
  );

describe.each(BACKENDS)('the setup code (%s)', (backend) => {
  const t = sharedTestDb(backend);

  it('is stored only as its HMAC, accepted once, and refused the second time', async () => {
    const code = await printedCode(t.prisma);
    const rows = await t.prisma.setupCode.findMany();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(code.replaceAll('-', ''));
    expect(await refusal(completeSetup(t.prisma, SECRET, '0000-0000-0000', admin))).toBe('forbidden');
    expect(await refusal(completeSetup(t.prisma, 'another secret, another HMAC', code, admin))).toBe('forbidden');
    const user = await completeSetup(t.prisma, SECRET, ` ${code} `, admin);
    expect(user).toMatchObject({ email: admin.email, role: 'admin' });
    expect(await setupNeeded(t.prisma)).toBe(false);
    expect(await t.prisma.setupCode.count()).toBe(0);
    expect(await refusal(completeSetup(t.prisma, SECRET, code, { ...admin, email: 'second@team.test' }))).toBe(
      'conflict',
    );
    expect(await t.prisma.user.count()).toBe(1);
  });

  it('two setups at once with the codes of two starts: one admin is made', async () => {
    const [first, second] = [await printedCode(t.prisma), await printedCode(t.prisma)];
    const codes = backend === 'sqlite' ? [second, second] : [first, second];
    const outcomes = await Promise.all(
      codes.map((code, i) =>
        refusal(completeSetup(t.prisma, SECRET, code, { ...admin, email: `admin${i}@team.test` })),
      ),
    );
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    expect(await t.prisma.user.count()).toBe(1);
  });

  it(
    backend === 'sqlite'
      ? "a restart's code replaces the last one printed (one process)"
      : "another start's code does not replace the codes other instances printed",
    async () => {
      const first = await printedCode(t.prisma);
      const second = await printedCode(t.prisma);
      expect(await refusal(completeSetup(t.prisma, SECRET, first, admin))).toBe(
        backend === 'sqlite' ? 'forbidden' : 'accepted',
      );
      if (backend === 'sqlite') expect(await refusal(completeSetup(t.prisma, SECRET, second, admin))).toBe('accepted');
    },
  );

  it('prints no code once a user exists', async () => {
    await printedCode(t.prisma);
    await completeSetup(t.prisma, SECRET, await printedCode(t.prisma), admin);
    const lines: string[] = [];
    await prepareTeamMode(t.prisma, ENV, (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(await t.prisma.setupCode.count()).toBe(0);
  });
});
