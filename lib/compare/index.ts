/**
 * lib/compare's front door: what other rooms (the compare page) use of it, the diff of two runs and the facts
 * the page lines up. Browser-safe and pure, like the room.
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { diffRuns } from './diff';
export type { PathStep, RunDiff } from './diff';
export { RUN_FACTS, sharedText } from './facts';
