/**
 * Running imports as rows (ImportSlot): one per person across every instance on the database, each naming the
 * instance running it and when it stops counting. The SQL of the import limits (lib/server/imports/import-jobs.ts).
 * Not responsible for how long an import may take, the limit per process, or which slots a process holds
 * (import-jobs.ts).
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';

export interface ImportSlotRow {
  id: string;
  who: string;
  instanceId: string;
  startedAt: Date;
  expiresAt: Date;
}

/**
 * Takes `slot.who`'s slot, or answers false when a live one holds it. One statement (so two instances cannot both
 * take it): the insert, or on the person's existing row an update that applies only when that row is stale: expired
 * by `slot.startedAt`, or, when `heldHere` is given (one process: SQLite), not among the slots this process holds.
 */
export async function claimImportSlot(
  db: Db,
  slot: ImportSlotRow,
  heldHere: readonly string[] | null,
): Promise<boolean> {
  const notHeld =
    heldHere === null
      ? Prisma.empty
      : heldHere.length === 0
        ? Prisma.sql` OR 1 = 1`
        : Prisma.sql` OR "ImportSlot"."id" NOT IN (${Prisma.join(heldHere)})`;
  const taken = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    INSERT INTO "ImportSlot" ("id", "who", "instanceId", "startedAt", "expiresAt")
    VALUES (${slot.id}, ${slot.who}, ${slot.instanceId}, ${slot.startedAt}, ${slot.expiresAt})
    ON CONFLICT ("who") DO UPDATE SET
      "id" = excluded."id", "instanceId" = excluded."instanceId",
      "startedAt" = excluded."startedAt", "expiresAt" = excluded."expiresAt"
    WHERE "ImportSlot"."expiresAt" <= ${slot.startedAt}${notHeld}
    RETURNING "id"`);
  return taken.some((row) => row.id === slot.id);
}

export async function releaseImportSlot(db: Db, id: string): Promise<void> {
  await db.importSlot.deleteMany({ where: { id } });
}
