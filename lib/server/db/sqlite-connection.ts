/**
 * The better-sqlite3 connection under a SQLite Prisma client, for the log room's hot writes (a live run's events and
 * nodes): prepared once per connection and run with the values bound as they are. Through Prisma's raw API every
 * parameter is serialised to JSON and parsed back (bytes as base64, twice) and every statement re-prepared, which was
 * most of a live run's write path (npm run bench:write).
 * It is Prisma's own connection, not a second one: a statement run here inside `prisma.$transaction` is part of that
 * transaction (the adapter opened it with BEGIN on this connection and holds its lock until COMMIT), and one run outside
 * a transaction is what Prisma's own non-transactional statements are, one autocommitted statement. A second
 * connection would wait for the first one's write lock in a busy loop blocking the event loop (lib/server/run-log/events.ts).
 * Not responsible for any table's SQL (lib/server/run-log), for opening or closing the connection (client.ts:
 * Prisma does), nor for PostgreSQL (none there: `sqliteStatementsOf` answers null).
 */
import Database from 'better-sqlite3';

/**
 * A Prisma client or transaction client, as far as this module reads it (client.ts's Db; not imported from there:
 * client.ts imports this module to register its connection, and one way is enough).
 */
type PrismaLike = object;

/** Prepared statements of one connection, by their SQL. */
export class SqliteStatements {
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(readonly connection: Database.Database) {}

  /** The statement for `sql`, prepared on first use (callers pass fixed SQL, so the cache stays a handful). */
  get(sql: string): Database.Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}

/**
 * Where an adapter factory keeps its current connection's statements (client.ts's adapter registers them on connect):
 * on the factory itself, under a registered symbol, not in a map of this module's. Next bundles this module into each
 * route's code as well as the services' (instrumentation.ts), so a map here would be a different one per bundle, and a
 * route reading through the services' client found none (the run page's history failed: "not connected").
 */
const STATEMENTS = Symbol.for('arborist.sqliteStatements');

type Registered = { [STATEMENTS]?: SqliteStatements };

/**
 * Called by client.ts's SQLite adapter with the driver adapter it just connected. The connection is the adapter's
 * `client` field (better-sqlite3's Database): not in its typings, so it is checked, and an adapter that stops having
 * it fails every SQLite write at once rather than silently writing elsewhere.
 */
export function registerSqliteConnection(factory: object, driverAdapter: unknown): void {
  const connection = (driverAdapter as { client?: unknown } | null)?.client;
  if (!(connection instanceof Database)) throw new Error('the SQLite adapter no longer exposes its connection');
  (factory as Registered)[STATEMENTS] = new SqliteStatements(connection);
}

/**
 * The prepared statements on the connection under `db` (a SQLite client or its transaction client); null on
 * PostgreSQL. A client that has not connected yet is connected first. Like databaseKindOf, it reads what Prisma keeps
 * on the client (the adapter factory in `_engineConfig`), the same on a transaction client.
 */
export async function sqliteStatementsOf(db: PrismaLike): Promise<SqliteStatements | null> {
  const factory = (db as unknown as { _engineConfig?: { adapter?: object } })._engineConfig?.adapter;
  if (!factory) throw new Error('unknown database client (no driver adapter)');
  if ((factory as { provider?: string }).provider !== 'sqlite') return null;
  let statements = (factory as Registered)[STATEMENTS];
  if (!statements?.connection.open && '$connect' in db) {
    await (db as { $connect: () => Promise<void> }).$connect();
    statements = (factory as Registered)[STATEMENTS];
  }
  if (!statements?.connection.open) throw new Error('the SQLite client is not connected');
  return statements;
}
