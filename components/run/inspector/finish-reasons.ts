// Why a run finished, in the inspector's words (RunDetails' outcome). The engine's 'terminated' is its own rule (a
// node reached terminationConfidence); a search Arborist does not run says 'terminated' when it decided it was done
// (the ingest API's default for a successful finish), which no confidence of ours decided. Pure.
import type { FinishReason } from '@/lib/contract/vocabulary';

const FINISH_REASONS: Record<FinishReason, string> = {
  terminated: 'a node reached the termination confidence',
  'frontier-empty': 'nothing left to explore',
  'node-limit': 'the node limit was reached',
  'iteration-limit': 'the MCTS iteration budget was used',
  timeout: 'the time limit was reached',
  budget: 'the cost cap was reached',
  aborted: 'aborted by a person',
  error: 'an error stopped it',
};

const EXTERNAL_FINISH_REASONS: Partial<Record<FinishReason, string>> = {
  terminated: 'the search decided it was done',
};

/** `external`: the run is a search Arborist does not run (run.started's `external`). */
export function finishReasonText(reason: FinishReason, external: boolean): string {
  return (external ? EXTERNAL_FINISH_REASONS[reason] : undefined) ?? FINISH_REASONS[reason];
}
