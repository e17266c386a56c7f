/**
 * lib/event-log's front door: how the run page speaks of its events (one line per event, its kind and actor, the
 * log's filter, the inspector's model calls, a node's last MCTS selection and value history), for
 * components/run/event-log and components/run/inspector.
 * Browser-safe (its package.json says it has no side effects, so a page bundles only what it uses).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */
export * from './describe-event';
export * from './filter';
export * from './mcts';
export * from './model-calls';
