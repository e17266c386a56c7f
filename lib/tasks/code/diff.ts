/**
 * Applying and combining unified diffs on a project's files (jsdiff). STUB on main: the sandbox helper builds it.
 * Not responsible for verifying the result (sandbox/) or for what a change means (task.ts).
 */
import type { ProjectFiles } from './types';

export type ApplyResult = { ok: true; files: ProjectFiles } | { ok: false; reason: string };

/** Applies a unified diff (one or more files; new and deleted files too) to `files`; never mutates it. */
export function applyDiff(files: ProjectFiles, diff: string): ApplyResult {
  void files;
  void diff;
  throw new Error('applyDiff: not built yet');
}

/** Applies diffs in order; the first that does not apply names its index in the reason. */
export function applyDiffs(files: ProjectFiles, diffs: readonly string[]): ApplyResult {
  void files;
  void diffs;
  throw new Error('applyDiffs: not built yet');
}

/** One git-style patch (`diff --git a/x b/x` headers) from `before` to `after`, which `git apply` accepts. */
export function diffProjects(before: ProjectFiles, after: ProjectFiles): string {
  void before;
  void after;
  throw new Error('diffProjects: not built yet');
}
