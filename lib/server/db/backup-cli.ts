/**
 * `npm run db:backup -- <file>` and `npm run db:restore -- <file>`: a consistent copy of the database DATABASE_URL names
 * (default ./data/arborist.db), made while the app runs; and a copy restored into an empty database, migrated to this
 * version. PostgreSQL's tools come from ARBORIST_PG_BIN or the PATH. Run from the repository root.
 * Not responsible for the copying itself (backup.ts) nor for scheduling backups (the README says how often and where).
 */
import { resolveDatabase } from './backend';
import { BackupError, backupDatabase, restoreDatabase } from './backup';

const USAGE = 'usage: npm run db:backup -- <file>   |   npm run db:restore -- <file>';

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

async function main(): Promise<void> {
  const [command, file, ...rest] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !file || rest.length > 0) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const target = resolveDatabase();
  const tools = { binDir: process.env.ARBORIST_PG_BIN?.trim() || undefined };
  if (command === 'backup') {
    const done = await backupDatabase(target, file, tools);
    console.log(
      `${target.display}: backed up to ${done.file} (${megabytes(done.bytes)}) in ${Math.round(done.ms)} ms.`,
    );
    return;
  }
  const done = await restoreDatabase(target, file, tools);
  const migrated = done.migrated.length
    ? `, then applied ${done.migrated.length} newer migration(s): ${done.migrated.join(', ')}`
    : '';
  console.log(
    `${target.display}: restored from ${done.file} (${megabytes(done.bytes)}) in ${Math.round(done.ms)} ms${migrated}.`,
  );
}

main().catch((error: unknown) => {
  // a BackupError says what to do; anything else is unexpected and keeps its stack
  console.error(error instanceof BackupError ? error.message : error);
  process.exitCode = 1;
});
