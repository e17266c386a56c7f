/**
 * Prisma CLI configuration (Prisma 7 keeps the datasource URL here, not in schema.prisma).
 * Only `prisma generate`, `validate` and `format` run offline; migrations are applied by lib/server/db/migrate.ts,
 * which reads the same DATABASE_URL. Not responsible for the runtime client (lib/server/db/client.ts).
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // A relative file: URL is resolved against the working directory, as resolveDatabaseFile() does.
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/arborist.db' },
});
