/**
 * Applying and combining unified diffs on a project's files, in memory, with jsdiff: it parses the text (plain and
 * git-style diffs, `a/` `b/` prefixes, new, deleted and renamed files) and applies the hunks with no fuzz, one at a time
 * so a failure names the file and the hunk; git's anchors (a hunk at line 1 matches the file's start) are checked here.
 * diffProjects writes one git-style patch that `git apply` accepts.
 * Not responsible for verifying the result (sandbox/) or for what a change means (task.ts); never touches the disk.
 */
import { applyPatch, parsePatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { ProjectFiles } from './types';

export type ApplyResult = { ok: true; files: ProjectFiles } | { ok: false; reason: string };

/**
 * A diff's path as a project path: `a/` and `b/` dropped, null for /dev/null. A path that leaves the project
 * (absolute, `..`) is refused: the diff comes from a model, and the sandbox writes these paths to disk.
 */
function projectPath(name: string | undefined, prefix: 'a/' | 'b/'): string | null | { bad: string } {
  if (name === undefined || name === '/dev/null') return null;
  const path = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (path === '' || path.startsWith('/') || path.split('/').some((part) => part === '..' || part === '')) {
    return { bad: name };
  }
  return path;
}

/** The lines a hunk expects to find (context and removed), without jsdiff's "\ No newline" markers. */
function oldSide(hunk: StructuredPatchHunk): string[] {
  return hunk.lines.filter((line) => line[0] === ' ' || line[0] === '-').map((line) => line.slice(1));
}

/**
 * Where git pins a hunk and jsdiff would search instead: one starting at line 1 must match the file's start, one with
 * no trailing context its end (so a hunk written for the top of a file never lands lower down).
 */
function breaksGitAnchor(text: string, hunk: StructuredPatchHunk): boolean {
  const expected = oldSide(hunk);
  if (expected.length === 0) return false;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const same = (from: number) => from >= 0 && expected.every((line, i) => lines[from + i] === line);
  const last = hunk.lines.filter((line) => !line.startsWith('\\')).at(-1) ?? ' ';
  if (hunk.oldStart <= 1 && !same(0)) return true;
  return !last.startsWith(' ') && !same(lines.length - expected.length);
}

/**
 * Applies one file's hunks in order with jsdiff (no fuzz: every context and removed line must match; a hunk may sit
 * at another line than its header says, as `git apply` allows, except where git anchors it). One hunk at a time, so
 * a failure names the hunk (1-based) and the line its header gives; each hunk's header is moved by what the hunks
 * before it added or removed.
 */
function applyHunks(source: string, hunks: StructuredPatchHunk[], path: string): string {
  let text = source;
  let shift = 0;
  for (const [index, hunk] of hunks.entries()) {
    const mismatch = new HunkMismatch(`${path}: hunk ${index + 1} (at line ${hunk.oldStart}) does not match`);
    if (breaksGitAnchor(text, hunk)) throw mismatch;
    const moved = { ...hunk, oldStart: hunk.oldStart + shift, newStart: hunk.oldStart + shift };
    const applied = applyPatch(text, { hunks: [moved] } as StructuredPatch, { fuzzFactor: 0 });
    if (applied === false) throw mismatch;
    text = applied;
    shift += hunk.newLines - hunk.oldLines;
  }
  return text;
}

class HunkMismatch extends Error {}

function parse(diff: string): StructuredPatch[] | string {
  if (diff.trim() === '') return 'the diff is empty';
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(diff);
  } catch (error) {
    return `not a unified diff: ${(error as Error).message}`;
  }
  // jsdiff reads any text as a patch of no file: a diff names at least one file
  const named = patches.filter((p) => p.oldFileName !== undefined || p.newFileName !== undefined);
  if (named.length === 0) return 'not a unified diff: no "--- a/file" / "+++ b/file" headers';
  return named;
}

/** Applies a unified diff (one or more files; new and deleted files too) to `files`; never mutates it. */
export function applyDiff(files: ProjectFiles, diff: string): ApplyResult {
  const patches = parse(diff);
  if (typeof patches === 'string') return { ok: false, reason: patches };
  const next: ProjectFiles = { ...files };
  for (const patch of patches) {
    const oldPath = projectPath(patch.oldFileName, 'a/');
    const newPath = projectPath(patch.newFileName, 'b/');
    for (const path of [oldPath, newPath]) {
      if (path !== null && typeof path === 'object') {
        return { ok: false, reason: `${path.bad}: a path outside the project (absolute or with ..)` };
      }
    }
    const from = oldPath as string | null;
    const to = newPath as string | null;
    const creates = from === null || patch.isCreate === true;
    const deletes = to === null || patch.isDelete === true;
    const name = (to ?? from) as string | null;
    if (name === null) return { ok: false, reason: 'a file diff names neither an old nor a new file' };
    if (patch.isBinary) return { ok: false, reason: `${name}: binary changes are not supported` };
    if (creates) {
      if (to === null) return { ok: false, reason: `${name}: a diff that both creates and deletes the file` };
      if (next[to] !== undefined) return { ok: false, reason: `${to}: is created by the diff but already exists` };
    } else if (next[from as string] === undefined) {
      return { ok: false, reason: `${from}: does not exist` };
    }
    const source = creates ? '' : (next[from as string] as string);
    let text: string;
    try {
      text = applyHunks(source, patch.hunks, name);
    } catch (error) {
      if (error instanceof HunkMismatch) return { ok: false, reason: error.message };
      throw error;
    }
    if (deletes) {
      if (text !== '') return { ok: false, reason: `${name}: is deleted by the diff but its hunks leave lines` };
      delete next[(from ?? name) as string];
      continue;
    }
    const target = to as string;
    // a rename (git's "rename from"/"rename to", or differing --- and +++ names) moves the file
    if (from !== null && from !== target && !patch.isCopy) {
      if (next[target] !== undefined) return { ok: false, reason: `${target}: is renamed onto but already exists` };
      delete next[from];
    }
    next[target] = text;
  }
  return { ok: true, files: next };
}

/** Applies diffs in order; the first that does not apply names its index in the reason. */
export function applyDiffs(files: ProjectFiles, diffs: readonly string[]): ApplyResult {
  let current = files;
  for (const [index, diff] of diffs.entries()) {
    const result = applyDiff(current, diff);
    if (!result.ok) return { ok: false, reason: `diff ${index + 1} of ${diffs.length}: ${result.reason}` };
    current = result.files;
  }
  return { ok: true, files: current };
}

/** A hunk as unified-diff text; jsdiff's lines already carry their "\ No newline at end of file" markers. */
function formatHunk(hunk: StructuredPatchHunk): string {
  // as git writes it: an empty side's start is the line before it (jsdiff keeps it 1-based), a count of 1 left out
  const range = (start: number, count: number) => `${count === 0 ? start - 1 : start}${count === 1 ? '' : `,${count}`}`;
  const header = `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`;
  return [header, ...hunk.lines].join('\n') + '\n';
}

/** One git-style patch (`diff --git a/x b/x` headers) from `before` to `after`, which `git apply` accepts. */
export function diffProjects(before: ProjectFiles, after: ProjectFiles): string {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const parts: string[] = [];
  for (const path of paths) {
    const oldText = before[path];
    const newText = after[path];
    if (oldText === newText) continue;
    const header = [`diff --git a/${path} b/${path}`];
    if (oldText === undefined) header.push('new file mode 100644');
    if (newText === undefined) header.push('deleted file mode 100644');
    const patch = structuredPatch(`a/${path}`, `b/${path}`, oldText ?? '', newText ?? '', undefined, undefined, {
      context: 3,
    });
    // an empty file created or deleted has no hunk, and then git wants no ---/+++ lines either
    if (patch.hunks.length > 0) {
      header.push(oldText === undefined ? '--- /dev/null' : `--- a/${path}`);
      header.push(newText === undefined ? '+++ /dev/null' : `+++ b/${path}`);
    }
    parts.push(header.join('\n') + '\n' + patch.hunks.map(formatHunk).join(''));
  }
  return parts.join('');
}

/** What a diff changes: files, added and removed lines. */
export interface DiffStat {
  files: number;
  added: number;
  removed: number;
}

/** Files, added and removed lines of a unified diff, read by jsdiff; text that is not a diff counts as nothing. */
export function diffStat(diff: string): DiffStat {
  const stat: DiffStat = { files: 0, added: 0, removed: 0 };
  const patches = parse(diff);
  if (typeof patches === 'string') return stat;
  for (const patch of patches) {
    stat.files += 1;
    for (const line of patch.hunks.flatMap((hunk) => hunk.lines)) {
      if (line.startsWith('+')) stat.added += 1;
      else if (line.startsWith('-')) stat.removed += 1;
    }
  }
  return stat;
}

export function formatDiffStat(stat: DiffStat): string {
  const files = `${stat.files} file${stat.files === 1 ? '' : 's'}`;
  return `${files} changed (+${stat.added} \u2212${stat.removed})`;
}
