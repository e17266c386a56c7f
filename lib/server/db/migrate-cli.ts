/**
 * `npm run db:migrate`: applies pending migrations to the database DATABASE_URL names (default ./data/arborist.db; a
 * postgresql:// URL takes prisma/migrations-postgres) and says what it applied. Run from the repository root.
 * Not responsible for creating migrations.
 */
import { resolveDatabase } from './backend';
import { migrateDatabase } from './client';

try {
  const target = resolveDatabase();
  const { applied } = await migrateDatabase(target);
  if (applied.length === 0) console.log(`${target.display}: up to date, nothing to apply.`);
  else
    console.log(
      `${target.display}: applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`,
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
