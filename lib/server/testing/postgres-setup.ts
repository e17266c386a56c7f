/**
 * vitest's global setup: one throwaway PostgreSQL cluster for the whole test run (lib/harness/postgres.ts), with a
 * template database migrated once, so every test that runs on PostgreSQL gets a fresh database in milliseconds
 * (CREATE DATABASE ... TEMPLATE). Its address reaches the tests through `inject('postgres')`.
 * When PostgreSQL cannot start, the whole run fails with the reason: nothing that needs it is skipped silently.
 * Not responsible for the tests' own databases (db.ts createTestDb).
 */
import type { TestProject } from 'vitest/node';
import { freePort, startPostgres } from '../../harness/index';
import { migratePostgres } from '../db/migrate-postgres';

export const TEMPLATE_DATABASE = 'arborist_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's server URL without a database (postgresql://postgres@127.0.0.1:<port>). */
    postgres: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = startPostgres(await freePort());
  try {
    await migratePostgres(await cluster.createDatabase(TEMPLATE_DATABASE));
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide('postgres', cluster.url('').replace(/\/$/, ''));
  return () => cluster.stop();
}
