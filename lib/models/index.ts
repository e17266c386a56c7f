/**
 * lib/models' front door: the model backends other rooms use, OpenAI-compatible, record/replay, the offline
 * simulator and the scripted and timed models that tests and benches drive the engine with; a model's errors, the
 * model servers' shared limit of requests in flight, and the seeded random numbers simulations share. Node-side (the server, tasks, the CLI, benches, tests).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { DEFAULT_MODEL_SERVER_MAX_CALLS, serverCallLimiter } from './call-limiter';
export { ModelError } from './model-error';
export { DEFAULT_OPENAI_BASE_URL, displayURL, OpenAIModel, PRIVATE_ADDRESS } from './openai';
export { createRng, hashString } from './random';
export type { Rng } from './random';
export { recordingFromEvents, RecordingModel, ReplayModel } from './recording';
export type { Recording } from './recording';
export { ScriptedTreeModel } from './scripted';
export type { TreeSpec } from './scripted';
export { countTokens, SimulatedModel } from './simulated';
export type { Simulation } from './simulated';
export { TimedModel } from './timed';
export type { TimedModelOptions } from './timed';
