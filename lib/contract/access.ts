/**
 * Who is asking, and what they may do: the roles of team mode and the one rule table the server enforces and the
 * browser reads to leave out controls a person could not use. Local mode (no ARBORIST_AUTH) has one local person who
 * may do everything; team mode has signed-in users (admin, member, viewer) and holders of a share link.
 * Browser-safe, imports only zod. Not responsible for finding out who is asking (lib/server/auth) nor for the
 * model-server rules (lib/server/model-servers.ts).
 */
import { z } from 'zod';

/**
 * admin: users, keys, any run; member: create, import, steer, fork and discuss any run, delete and share their own;
 * viewer: read.
 */
export const ROLES = ['admin', 'member', 'viewer'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export type Principal =
  /** Local mode: the one person at this machine. */
  | { kind: 'local' }
  | { kind: 'user'; id: string; email: string; name: string; role: Role }
  /**
   * A share link's holder, read only: one run (whole prompts only when the sharer allowed them), or one experiment
   * (its page and the runs that are its cells; runId null).
   */
  | { kind: 'share'; linkId: string; runId: string | null; experimentId: string | null; allowPrompts: boolean }
  /** Team mode, nobody signed in. */
  | { kind: 'anonymous' };

/** A password shorter than this is refused (sign-up, setup, ARBORIST_ADMIN_PASSWORD). */
export const MIN_PASSWORD_LENGTH = 10;

/** What a person does to a run. */
/** discuss: comment on it and label its nodes (issue 34). */
export const RUN_ACTIONS = ['read', 'readPrompts', 'steer', 'fork', 'discuss', 'share', 'delete'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

/** The run fields the rules look at. */
export interface RunAccessFacts {
  id: string;
  ownerId: string | null;
  /** The experiment the run is a cell of, when the caller looked (a share link of that experiment reads it). */
  experimentId?: string | null;
}

export function canOnRun(who: Principal, action: RunAction, run: RunAccessFacts): boolean {
  switch (who.kind) {
    case 'local':
      return true;
    case 'anonymous':
      return false;
    case 'share': {
      const shared =
        run.id === who.runId || (who.experimentId !== null && (run.experimentId ?? null) === who.experimentId);
      return shared && (action === 'read' || (action === 'readPrompts' && who.allowPrompts));
    }
    case 'user':
      if (who.role === 'admin') return true;
      if (action === 'read' || action === 'readPrompts') return true;
      if (who.role === 'viewer') return false;
      // a member steers, forks and discusses a teammate's run (that is what a shared debugger is for), but deletes and
      // shares only their own
      if (action === 'steer' || action === 'fork' || action === 'discuss') return true;
      return run.ownerId === who.id;
  }
}

/**
 * Stream into an external run as its client (the ingest API, lib/server/ingest): the local person, admins, and the
 * member who created it. A member steers a teammate's search but does not write into it.
 */
export function canIngestInto(who: Principal, run: RunAccessFacts): boolean {
  if (who.kind === 'local') return true;
  if (who.kind !== 'user' || who.role === 'viewer') return false;
  return who.role === 'admin' || run.ownerId === who.id;
}

/** Start new runs and import files. */
export function canCreateRuns(who: Principal): boolean {
  return who.kind === 'local' || (who.kind === 'user' && who.role !== 'viewer');
}

/** See the runs list (a share link shows its one run only). */
export function canListRuns(who: Principal): boolean {
  return who.kind === 'local' || who.kind === 'user';
}

/** Who a new run or experiment belongs to: the signed-in user; nobody in local mode. */
export function ownerIdOf(who: Principal): string | null {
  return who.kind === 'user' ? who.id : null;
}

/** Open an experiment's page: whoever may list runs, and the holder of a link to that experiment. */
export function canReadExperiment(who: Principal, experiment: { id: string }): boolean {
  if (who.kind === 'share') return who.experimentId === experiment.id;
  return canListRuns(who);
}

/** Make read-only links to an experiment: as for a run, the local person, admins, and the member who made it. */
export function canShareExperiment(who: Principal, experiment: { ownerId: string | null }): boolean {
  if (who.kind === 'local') return true;
  if (who.kind !== 'user' || who.role === 'viewer') return false;
  return who.role === 'admin' || experiment.ownerId === who.id;
}

/** Users, API keys of others, and a custom model server URL in team mode. */
export function isAdmin(who: Principal): boolean {
  return who.kind === 'local' || (who.kind === 'user' && who.role === 'admin');
}

/**
 * Change what someone wrote in a run's discussion (a comment, a label): its author (the local person wrote everything
 * in local mode) and, to delete, an admin. The caller may discuss the run already (canOnRun 'discuss').
 */
export function canChangeWriting(
  who: Principal,
  writing: { author: { id: string | null } },
  change: 'edit' | 'delete',
): boolean {
  if (who.kind === 'local') return true;
  if (who.kind !== 'user' || who.role === 'viewer') return false;
  if (writing.author.id === who.id) return true;
  return change === 'delete' && who.role === 'admin';
}

/** The name a command's event records as its actor. */
export function actorName(who: Principal): string {
  switch (who.kind) {
    case 'local':
      return 'person';
    case 'user':
      return who.email;
    case 'share':
      return `share link ${who.linkId.slice(0, 8)}`;
    case 'anonymous':
      return 'anonymous';
  }
}
