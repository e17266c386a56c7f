/**
 * The name a local-mode person's commands are recorded under, from the header the browser sends (x-arborist-actor).
 * Team mode records the signed-in user instead (lib/contract/access.ts actorName).
 * Not responsible for who may act (principal.ts, lib/contract/access.ts).
 */

/** Names are shown in the event log, so they are short plain text. */
export function actorFromHeader(value: string | null): string {
  const name = (value ?? '')
    .replace(/[^\p{L}\p{N} ._@-]/gu, '')
    .trim()
    .slice(0, 40);
  return name || 'person';
}
