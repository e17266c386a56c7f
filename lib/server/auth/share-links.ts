/**
 * Read-only share links to one run (or one experiment: its page and its cells' runs): made by a member (or the local
 * person), a run's optionally pinned to a step and a node, with an expiry, revocable, listed on the run or experiment. The URL carries `signShareToken(secret, row id)`; opening it
 * (app/share/[token]) checks the signature, the row, its expiry and revocation every time.
 * Not responsible for what a share holder may do (lib/contract/access.ts) nor the cookie (cookies.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { NotFoundError } from '../core/errors';
import { signShareToken, verifyShareToken } from './tokens';

/** The longest a link may live: a link is for a conversation about a run, not a permanent publication. */
export const MAX_SHARE_DAYS = 90;

/** When a link made now for `days` lapses (never past MAX_SHARE_DAYS). */
function expiryOf(now: Date, days: number): Date {
  return new Date(now.getTime() + Math.min(days, MAX_SHARE_DAYS) * 24 * 3600_000);
}

export interface ShareLinkRecord {
  id: string;
  runId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  step: number | null;
  nodeId: string | null;
  allowPrompts: boolean;
}

export interface NewShareLink {
  runId: string;
  createdBy: string;
  expiresInDays: number;
  step?: number | null;
  nodeId?: string | null;
  allowPrompts: boolean;
}

export async function createShareLink(
  db: Db,
  secret: string,
  input: NewShareLink,
  now = new Date(),
): Promise<{ token: string; record: ShareLinkRecord }> {
  const record = await db.shareLink.create({
    data: {
      id: randomUUID(),
      runId: input.runId,
      createdBy: input.createdBy,
      expiresAt: expiryOf(now, input.expiresInDays),
      step: input.step ?? null,
      nodeId: input.nodeId ?? null,
      allowPrompts: input.allowPrompts,
    },
  });
  return { token: signShareToken(secret, record.id), record };
}

/** A run's links, newest first (revoked and expired ones too, so the list says what happened to them). */
export async function listShareLinks(db: Db, runId: string): Promise<ShareLinkRecord[]> {
  return db.shareLink.findMany({ where: { runId }, orderBy: { createdAt: 'desc' } });
}

export async function getShareLink(db: Db, id: string): Promise<ShareLinkRecord | null> {
  return db.shareLink.findUnique({ where: { id } });
}

export async function revokeShareLink(db: Db, id: string, now = new Date()): Promise<ShareLinkRecord> {
  const link = await getShareLink(db, id);
  if (!link) throw new NotFoundError(`no share link ${id}`);
  return db.shareLink.update({ where: { id }, data: { revokedAt: link.revokedAt ?? now } });
}

/** The live link a token names: signed by us, not revoked, not expired; else null. */
export async function resolveShareToken(
  db: Db,
  secret: string,
  token: string,
  now = new Date(),
): Promise<ShareLinkRecord | null> {
  const id = verifyShareToken(secret, token);
  if (!id) return null;
  const link = await getShareLink(db, id);
  if (!link || link.revokedAt || link.expiresAt <= now) return null;
  return link;
}

/** A read-only link to one experiment: its page and the runs that are its cells. */
export interface ExperimentShareLinkRecord {
  id: string;
  experimentId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export async function createExperimentShareLink(
  db: Db,
  secret: string,
  input: { experimentId: string; createdBy: string; expiresInDays: number },
  now = new Date(),
): Promise<{ token: string; record: ExperimentShareLinkRecord }> {
  const record = await db.experimentShareLink.create({
    data: {
      id: randomUUID(),
      experimentId: input.experimentId,
      createdBy: input.createdBy,
      expiresAt: expiryOf(now, input.expiresInDays),
    },
  });
  return { token: signShareToken(secret, record.id), record };
}

export async function listExperimentShareLinks(db: Db, experimentId: string): Promise<ExperimentShareLinkRecord[]> {
  return db.experimentShareLink.findMany({ where: { experimentId }, orderBy: { createdAt: 'desc' } });
}

export async function getExperimentShareLink(db: Db, id: string): Promise<ExperimentShareLinkRecord | null> {
  return db.experimentShareLink.findUnique({ where: { id } });
}

export async function revokeExperimentShareLink(db: Db, id: string, now = new Date()): Promise<void> {
  await db.experimentShareLink.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
}

/**
 * The live link a token names, a run's or an experiment's (one token format: the row's id signed; ids are UUIDs, so
 * the two tables never share one); null for a token that is not ours, revoked or expired.
 */
export async function resolveAnyShareToken(
  db: Db,
  secret: string,
  token: string,
  now = new Date(),
): Promise<{ run: ShareLinkRecord } | { experiment: ExperimentShareLinkRecord } | null> {
  const id = verifyShareToken(secret, token);
  if (!id) return null;
  const run = await getShareLink(db, id);
  if (run) return run.revokedAt || run.expiresAt <= now ? null : { run };
  const experiment = await getExperimentShareLink(db, id);
  if (!experiment || experiment.revokedAt || experiment.expiresAt <= now) return null;
  return { experiment };
}
