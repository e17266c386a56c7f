/**
 * What the page may offer a person: the rule table of lib/contract/access.ts read once per page into plain flags,
 * so a component asks `allowed.steer` instead of repeating a rule. A principal not known yet (auth.me still on its
 * way) is allowed nothing: a control appears when it is known to be usable, never flashes and then goes.
 * Not responsible for the rules (lib/contract/access.ts, which the server enforces) nor for finding out who asks
 * (the auth.me query, components/session).
 */
import {
  canCreateRuns,
  canListRuns,
  canOnRun,
  isAdmin,
  type Principal,
  RUN_ACTIONS,
  type RunAccessFacts,
  type RunAction,
} from '../contract/access';

export type RunPermissions = Record<RunAction, boolean>;

/**
 * The actions `who` may take on `run`. With the run's record not loaded yet its owner is unknown, and the rules are
 * asked as if it had none: a member's owner-only actions (share, delete) wait for the record, nothing else does.
 */
export function runPermissions(who: Principal | null, runId: string, run: RunAccessFacts | null): RunPermissions {
  const facts: RunAccessFacts = run ?? { id: runId, ownerId: null };
  const allowed = {} as RunPermissions;
  for (const action of RUN_ACTIONS) allowed[action] = who !== null && canOnRun(who, action, facts);
  return allowed;
}

export interface PagePermissions {
  /** The new run form and the import drop zone. */
  createRuns: boolean;
  /** The runs list (a share link's holder has one run instead). */
  listRuns: boolean;
  /** The users panel of /settings. */
  admin: boolean;
}

export function pagePermissions(who: Principal | null): PagePermissions {
  if (who === null) return { createRuns: false, listRuns: false, admin: false };
  return { createRuns: canCreateRuns(who), listRuns: canListRuns(who), admin: isAdmin(who) };
}
