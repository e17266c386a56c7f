/**
 * Inputs shared by several procedures (and the run form), validated with zod.
 * Not responsible for the config schema (lib/contract/vocabulary.ts), which it reuses.
 */
import { breakpointListSchema } from '../../contract/breakpoints';
import { z } from 'zod';
import { toTConfigFields } from '../../contract/vocabulary';
import { modelSpecSchema } from '../../contract/model-spec';
import { RUN_STATUSES } from '../../contract/run-status';
import { GOAL_MAX_LENGTH } from '../../contract/tasks';
import { DEFAULT_RUN_SORT, MAX_TAG_FILTER_LENGTH, RUN_SORT_KEYS } from '../../contract/run-list';
import { labelNameSchema } from '../../contract/discussion';

export const runIdInput = z.object({ id: z.string().min(1).max(100) });

export const nodeInput = z.object({ runId: z.string().min(1).max(100), nodeId: z.string().min(1).max(100) });

/** The config fields a person may set; the rest come from DEFAULT_TOT_CONFIG. */
export const configInput = toTConfigFields.partial();

export const createRunInput = z.object({
  taskId: z.string().min(1).max(40),
  goal: z.string().max(GOAL_MAX_LENGTH),
  config: configInput.default({}),
  model: modelSpecSchema.default({ provider: 'simulated', seed: 1, latencyMs: 150 }),
  /** The breakpoints the run starts with (lib/contract/breakpoints.ts). */
  breakpoints: breakpointListSchema.default([]),
});

/** A run's whole breakpoint list from the next step boundary on (run.setBreakpoints). */
export const setBreakpointsInput = z.object({ id: z.string().min(1).max(100), breakpoints: breakpointListSchema });

/** Which runs a list covers (the list and its summary take the same filter). */
export const runFilterInput = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  taskId: z.string().max(40).optional(),
  /** Words to find in a run's goal, output or import tag (plain words: the server quotes them for FTS5). */
  q: z.string().max(200).optional(),
  /** Only the runs of this import (Run.importTag, exactly). */
  tag: z.string().min(1).max(MAX_TAG_FILTER_LENGTH).optional(),
  /** Only the runs started here by hand (no import tag, no experiment's cell). */
  mine: z.boolean().optional(),
  /** Only the runs that are experiments' cells. */
  cells: z.boolean().optional(),
  /** Only the runs with a node carrying this label (any name: a label no longer in the set still finds its runs). */
  label: labelNameSchema.optional(),
});

export const listRunsInput = runFilterInput.extend({
  cursor: z.string().max(100).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
  sort: z.object({ by: z.enum(RUN_SORT_KEYS), dir: z.enum(['asc', 'desc']) }).default(DEFAULT_RUN_SORT),
});

export const eventsRangeInput = z.object({
  id: z.string().min(1).max(100),
  /** Events with seq > afterSeq. */
  afterSeq: z.number().int().min(0).default(0),
  /** Events with seq <= untilSeq. */
  untilSeq: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(10_000).default(2_000),
  /** Model calls without their prompts (fetch one whole with run.event). */
  light: z.boolean().default(false),
});
