/**
 * `npm run db:migrate`: applies pending migrations to the database DATABASE_URL names (default ./data/arborist.db)
 * and says what it applied. Run from the repository root. Not responsible for creating migrations.
 */
import { migrate, resolveDatabaseFile } from './migrate';

try {
  const file = resolveDatabaseFile();
  const { applied } = migrate(file);
  if (applied.length === 0) console.log(`${file}: up to date, nothing to apply.`);
  else
    console.log(`${file}: applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
