/**
 * lib/server/cluster's front door: several instances on one PostgreSQL database as one server (README.md). The run
 * manager and the services enter here; the tests too.
 * Not responsible for anything itself: the modules hold the definitions.
 */
export { Cluster, type ClusterHost, type ClusterOptions, defaultInstanceId, LeaseLostError } from './cluster';
export { COMMANDS_CHANNEL, DEFAULT_COMMAND_TIMEOUT_MS, REPLIES_CHANNEL } from './commands';
export { RUN_TASK, runJobKey } from './queue';
export { checkHealth, type HealthReport } from './health';
