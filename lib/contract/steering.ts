/**
 * Which steering commands a search Arborist does not run will take, in words a person reads: one definition for the
 * page (which disables a control and says why) and the server (which refuses the command with CONFLICT), so the two
 * never word it differently. A search Arborist runs itself takes every command (null: no refusal here).
 * Also where such a command stands (STEER_OUTCOMES) and the words for one the run's end left unanswered.
 * Browser-safe and pure. Not responsible for the other reasons a command cannot be given now (the run's state, the
 * node: lib/store's steerBlock; who may steer: access.ts).
 */
import { traceIdOf } from './traces';
import type { SteerKind } from './vocabulary';

/** What of run.started's `external` this needs: the commands the client applies (null: Arborist runs the search). */
export interface SteerTaker {
  commands: readonly SteerKind[];
  /** The program's own config: a traced run's holds its trace id (traces.ts). */
  config?: Record<string, unknown>;
}

/**
 * The agent name an external run gets when its program gives none (the ingest API's default). It means "unnamed":
 * read through clientName, never shown as a name ("external: external").
 */
export const UNNAMED_AGENT = 'external';

/** The program's own name, or null when it gave none (empty, or the ingest default). */
export function clientName(agentName: string): string | null {
  const name = agentName.trim();
  return name === '' || name === UNNAMED_AGENT ? null : name;
}

/** An external run's tag: "external", and the program's name when it gave one ("external: py-tot"). */
export function externalTag(agentName: string): { text: string; agent: string | null } {
  const agent = clientName(agentName);
  return { text: agent ? `external: ${agent}` : 'external', agent };
}

/** Why no command can be sent to this run at all (its client listens for none), or null when some can. */
export function steeringUnavailable(external: SteerTaker | null, agentName: string): string | null {
  if (!external || external.commands.length > 0) return null;
  if (traceIdOf(external) !== null) {
    return 'steering is unavailable: a traced program only sends spans, no channel leads back to it';
  }
  return `steering is unavailable: ${clientName(agentName) ?? 'the client'} does not listen for commands`;
}

/** Why the search cannot take a `kind` command (unavailable, or not one it applies), or null when it can. */
export function externalSteerBlock(external: SteerTaker | null, agentName: string, kind: SteerKind): string | null {
  if (!external) return null;
  return (
    steeringUnavailable(external, agentName) ??
    (external.commands.includes(kind) ? null : `this search does not take ${kind} commands`)
  );
}

/**
 * Why breakpoints cannot be set on this run, or null when they can: a breakpoint stops a search Arborist does not
 * run by asking its client to pause, so the client must take pause commands.
 */
export function externalBreakpointBlock(external: SteerTaker | null, agentName: string): string | null {
  const refusal = externalSteerBlock(external, agentName, 'pause');
  return refusal && `breakpoints stop this search by asking its client to pause, but ${refusal}`;
}

/**
 * Where a command asked of a search Arborist does not run stands (lib/engine's fold of the log): `requested` until the
 * client answers (steer.acked: `applied` or `refused`), or `ended` when the run ended first (finished, failed or
 * interrupted): nobody is left to answer it, so no poll hands it out and the page stops saying it waits. An answer
 * that still comes (a client back after an interruption) is the command's outcome all the same.
 */
export const STEER_OUTCOMES = ['requested', 'applied', 'refused', 'ended'] as const;
export type SteerOutcome = (typeof STEER_OUTCOMES)[number];

/** How a run ended, as the reason of the commands it left unanswered. */
export type RunEnding = 'finished' | 'aborted' | 'failed' | 'interrupted';

/** The reason of a command ended with its run: "the run was aborted before the client answered". */
export function endedUnanswered(ending: RunEnding): string {
  const how = ending === 'finished' || ending === 'failed' ? ending : `was ${ending}`;
  return `the run ${how} before the client answered`;
}
