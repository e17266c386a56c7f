/**
 * lib/server/experiments' door: the experiment service (wired in services.ts) and the dataset makers the routers call.
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */
export { editDataset, goalRule, makeDataset } from './datasets';
export {
  DEFAULT_EXPERIMENT_MODEL,
  type ExperimentEstimate,
  type ExperimentRequester,
  ExperimentService,
  type ExperimentServiceOptions,
} from './experiment-service';
