/**
 * The log room's clean-up: what no run stands for any more, swept at start and then on a timer by every instance
 * (clustered or not, SQLite or PostgreSQL: each sweep is safe beside live writers on any instance, see its function):
 * the staged runs of imports that died (import-writer.ts sweepStagedImports, older than the longest an import may
 * take) and the prompt texts no run names (events.ts sweepPromptTexts: a deleted run's, a failed import's).
 * Not responsible for when a run is deleted (run-log.ts, the producers) nor for how long an import may take
 * (imports/, handed in as `maxImportMs`).
 */
import type { Logger } from '../core/logger';
import type { PrismaClient } from '../db/client';
import { sweepPromptTexts } from './events';
import { sweepStagedImports } from './import-writer';

/** How often an instance sweeps: leftovers are rare and harmless for a while; a sweep is a few indexed statements. */
export const LEFTOVER_SWEEP_MS = 10 * 60_000;

export interface LeftoversSwept {
  stagedRuns: number;
  promptTexts: number;
}

/** One sweep of both: the staged runs first, whose deletion leaves their prompt texts unnamed. */
export async function sweepLeftovers(
  prisma: PrismaClient,
  /** maxImportMs null: every staged run, whatever its age (see LeftoverSweepOptions.soleProcess). */
  options: { maxImportMs: number | null; now?: Date },
): Promise<LeftoversSwept> {
  const now = options.now ?? new Date();
  const stagedRuns = await sweepStagedImports(prisma, options.maxImportMs, now);
  const promptTexts = await sweepPromptTexts(prisma, now);
  return { stagedRuns, promptTexts };
}

export interface LeftoverSweepOptions {
  prisma: PrismaClient;
  /** The longest an import may take (imports/ MAX_IMPORT_MS): staged runs older than this are a dead import's. */
  maxImportMs: number;
  /**
   * This process is the database's only one (SQLite): at start no import is running anywhere, so the first sweep
   * takes every staged run, young ones too (a restart right after a kill -9 leaves none behind). In a cluster another
   * instance may be importing: every sweep goes by age.
   */
  soleProcess?: boolean;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Default LEFTOVER_SWEEP_MS. */
  everyMs?: number;
  /** Told after each sweep (tests). */
  onSwept?: (swept: LeftoversSwept) => void;
}

export interface LeftoverSweeper {
  /** Unref'd: it never keeps the process alive. */
  readonly timer: NodeJS.Timeout;
  /** The first sweep, run at once: start-up awaits it. */
  readonly first: Promise<void>;
  /** No sweep starts after this; settles once a sweep under way has ended (before the client disconnects). */
  stop(): Promise<void>;
}

/** Sweeps now and then every `everyMs` until stopped; a failed sweep is logged and the next one tries again. */
export function startLeftoverSweeps(options: LeftoverSweepOptions): LeftoverSweeper {
  const { prisma, maxImportMs, log } = options;
  let stopped = false;
  let running: Promise<void> | null = null;
  const sweep = async (first: boolean) => {
    try {
      const swept = await sweepLeftovers(prisma, { maxImportMs: first && options.soleProcess ? null : maxImportMs });
      if (swept.stagedRuns > 0) log.info(`deleted ${swept.stagedRuns} run(s) an interrupted import had staged`);
      if (swept.promptTexts > 0) log.info(`deleted ${swept.promptTexts} prompt text(s) no run names`);
      options.onSwept?.(swept);
    } catch (error) {
      log.warn('sweeping leftovers failed (the next sweep tries again)', { error });
    }
  };
  const next = (first = false): Promise<void> => {
    // never two at once: a slow sweep skips a tick
    if (stopped || running) return Promise.resolve();
    const current = sweep(first).finally(() => {
      running = null;
    });
    running = current;
    return current;
  };
  const first = next(true);
  const timer = setInterval(() => void next(), options.everyMs ?? LEFTOVER_SWEEP_MS);
  timer.unref();
  return {
    timer,
    first,
    stop() {
      stopped = true;
      clearInterval(timer);
      return running ?? Promise.resolve();
    },
  };
}
