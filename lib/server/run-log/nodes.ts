/**
 * The node projection: one row per tree node with the few fields lists and filters query (status, score, thought),
 * kept up to date from the reduced tree. The event log stays the truth; this table can be rebuilt from it at any time.
 * Not responsible for the tree itself (lib/engine reduce) nor for deciding when to project (the run manager).
 */
import type { NodeStatus, ThoughtNode } from '../../engine/index';
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';
import { type SqliteStatements, sqliteStatementsOf } from '../db/sqlite-connection';

/** PostgreSQL: 500 rows x 10 parameters per statement, under its bound-parameter limit. */
export const NODE_CHUNK_ROWS = 500;

export interface NodeRecord {
  runId: string;
  nodeId: string;
  parentId: string | null;
  depth: number;
  status: NodeStatus;
  thought: string | null;
  composite: number | null;
  cumulativeScore: number;
  /** The verification's verdict; null when the node was not verified. */
  verified: boolean | null;
  createdSeq: number;
}

const NODE_SELECT = {
  runId: true,
  nodeId: true,
  parentId: true,
  depth: true,
  status: true,
  thought: true,
  composite: true,
  cumulativeScore: true,
  verified: true,
  createdSeq: true,
} as const satisfies Prisma.NodeSelect;

/** A node's projected values in column order after "runId" (NODE_COLUMNS): one mapping for every writer. */
export function nodeRow(node: ThoughtNode) {
  return [
    node.id,
    node.parentId,
    node.depth,
    node.status,
    node.branch?.thought ?? null,
    node.score?.composite ?? null,
    node.cumulativeScore,
    node.verification?.passed ?? null,
    node.createdSeq,
  ] as const;
}

const NODE_COLUMNS = Prisma.raw(
  '"runId", "nodeId", "parentId", "depth", "status", "thought", "composite", "cumulativeScore", "verified", "createdSeq"',
);

/** What an upsert changes when the node is there already: every column nodeRow gives. */
const ON_CONFLICT_UPDATE = Prisma.raw(`ON CONFLICT ("runId", "nodeId") DO UPDATE SET
  "parentId" = excluded."parentId", "depth" = excluded."depth", "status" = excluded."status",
  "thought" = excluded."thought", "composite" = excluded."composite",
  "cumulativeScore" = excluded."cumulativeScore", "verified" = excluded."verified",
  "createdSeq" = excluded."createdSeq"`);

/**
 * Inserts or updates the given nodes of a run (ON CONFLICT DO UPDATE, which SQLite and Postgres share): on PostgreSQL
 * one statement per NODE_CHUNK_ROWS nodes, on SQLite one per node. Each statement is atomic; pass a transaction client
 * to make a larger call atomic too (or to commit it with the events it projects).
 */
export async function upsertNodes(db: Db, runId: string, nodes: readonly ThoughtNode[]): Promise<void> {
  if (nodes.length === 0) return;
  const sqlite = await sqliteStatementsOf(db);
  if (sqlite) return upsertNodesOnSqlite(sqlite, runId, nodes);
  const statements: Prisma.Sql[] = [];
  for (let start = 0; start < nodes.length; start += NODE_CHUNK_ROWS) {
    const rows = nodes
      .slice(start, start + NODE_CHUNK_ROWS)
      .map((node) => Prisma.sql`(${runId}, ${Prisma.join(nodeRow(node))})`);
    statements.push(Prisma.sql`INSERT INTO "Node" (${NODE_COLUMNS}) VALUES ${Prisma.join(rows)} ${ON_CONFLICT_UPDATE}`);
  }
  for (const sql of statements) await db.$executeRaw(sql);
}

/** SQLite's upsert: one prepared statement, a node at a time (why: db/sqlite-connection.ts). */
const UPSERT_NODE_SQL = `INSERT INTO "Node" (${NODE_COLUMNS.sql}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${ON_CONFLICT_UPDATE.sql}`;

function upsertNodesOnSqlite(sqlite: SqliteStatements, runId: string, nodes: readonly ThoughtNode[]): void {
  const upsert = sqlite.get(UPSERT_NODE_SQL);
  for (const node of nodes) {
    const [id, parentId, depth, status, thought, composite, cumulativeScore, verified, createdSeq] = nodeRow(node);
    // better-sqlite3 binds no booleans: 1 or 0, how SQLite keeps one (what Prisma writes and reads back)
    const verdict = verified === null ? null : Number(verified);
    upsert.run(runId, id, parentId, depth, status, thought, composite, cumulativeScore, verdict, createdSeq);
  }
}

/** A run's nodes in the order they appeared, optionally only those in one status. */
export async function listNodes(
  db: Db,
  runId: string,
  options: { status?: NodeStatus | NodeStatus[] } = {},
): Promise<NodeRecord[]> {
  const { status } = options;
  const rows = await db.node.findMany({
    where: { runId, ...(status !== undefined && { status: Array.isArray(status) ? { in: status } : status }) },
    orderBy: [{ createdSeq: 'asc' }, { nodeId: 'asc' }],
    select: NODE_SELECT,
  });
  // Written only from ThoughtNode.status by upsertNodes.
  return rows.map((row) => ({ ...row, status: row.status as NodeStatus }));
}
