/**
 * Applying and combining unified diffs on a project's files, in memory. jsdiff parses the text (plain and git-style
 * diffs, `a/` `b/` prefixes, new, deleted and renamed files); the hunks are applied here, strictly: every context and
 * removed line must match exactly (a hunk may sit at another line than its header says, as `git apply` allows, but
 * no fuzz), so a failure names the file and the hunk. diffProjects writes one git-style patch that `git apply` accepts.
 * Not responsible for verifying the result (sandbox/) or for what a change means (task.ts); never touches the disk.
 */
import { parsePatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { ProjectFiles } from './types';

export type ApplyResult = { ok: true; files: ProjectFiles } | { ok: false; reason: string };

/** A file as lines without their newline, and whether its last line ends with one. */
interface Lines {
  lines: string[];
  eofNewline: boolean;
}

function toLines(text: string): Lines {
  if (text === '') return { lines: [], eofNewline: true };
  const lines = text.split('\n');
  const eofNewline = lines[lines.length - 1] === '';
  if (eofNewline) lines.pop();
  return { lines, eofNewline };
}

function fromLines({ lines, eofNewline }: Lines): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (eofNewline ? '\n' : '');
}

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

/** Old and new sides of a hunk, and whether each side's last line lacks its newline. */
function sidesOf(hunk: StructuredPatchHunk) {
  const before: string[] = [];
  const after: string[] = [];
  let beforeNoEol = false;
  let afterNoEol = false;
  let last = ' ';
  for (const line of hunk.lines) {
    if (line.startsWith('\\')) {
      if (last !== '+') beforeNoEol = true;
      if (last !== '-') afterNoEol = true;
      continue;
    }
    last = line[0] ?? ' ';
    const text = line.slice(1);
    if (last !== '+') before.push(text);
    if (last !== '-') after.push(text);
  }
  return { before, after, beforeNoEol, afterNoEol };
}

function matchesAt(file: string[], at: number, expected: string[]): boolean {
  if (at < 0 || at + expected.length > file.length) return false;
  return expected.every((line, i) => file[at + i] === line);
}

/** Applies one file's hunks in order; the reason names the hunk (1-based) and the line its header gives. */
function applyHunks(source: Lines, hunks: StructuredPatchHunk[], path: string): Lines | string {
  const lines = [...source.lines];
  let eofNewline = source.eofNewline;
  // where the previous hunk ended (a later hunk may not go back before it) and how far hunks moved so far
  let floor = 0;
  let shift = 0;
  for (const [index, hunk] of hunks.entries()) {
    const { before, after, beforeNoEol, afterNoEol } = sidesOf(hunk);
    const failed = `${path}: hunk ${index + 1} (at line ${hunk.oldStart}) does not match`;
    // jsdiff keeps starts 1-based even for an empty side ("-0,0" reads as 1): the hunk's old lines start here
    const headerAt = hunk.oldStart - 1;
    const expected = headerAt + shift;
    // git's anchors: a hunk starting at line 1 must match the file's start, one with no trailing context its end
    const lastLine = hunk.lines.filter((line) => !line.startsWith('\\')).at(-1) ?? ' ';
    const atStart = hunk.oldStart <= 1;
    const atEnd = before.length > 0 && !lastLine.startsWith(' ');
    let at = -1;
    if (before.length === 0 || atStart || atEnd) {
      const anchored = atStart ? 0 : atEnd ? lines.length - before.length : expected;
      if (anchored >= floor && anchored <= lines.length && matchesAt(lines, anchored, before)) at = anchored;
    } else {
      // the nearest exact match to where the header says, never before the previous hunk
      for (let distance = 0; at < 0 && distance <= lines.length; distance += 1) {
        if (expected - distance >= floor && matchesAt(lines, expected - distance, before)) at = expected - distance;
        else if (distance > 0 && expected + distance >= floor && matchesAt(lines, expected + distance, before)) {
          at = expected + distance;
        }
      }
    }
    if (at < 0) return failed;
    const reachesEnd = at + before.length === lines.length;
    // "\ No newline" on the old side must be true of the file, and only at its end
    if (beforeNoEol && (!reachesEnd || eofNewline)) return failed;
    if (!beforeNoEol && reachesEnd && before.length > 0 && !eofNewline) return failed;
    lines.splice(at, before.length, ...after);
    if (reachesEnd && (after.length > 0 || before.length > 0)) eofNewline = !afterNoEol;
    floor = at + after.length;
    shift = at - headerAt + (after.length - before.length);
  }
  return { lines, eofNewline };
}

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
    const applied = applyHunks(toLines(source), patch.hunks, name);
    if (typeof applied === 'string') return { ok: false, reason: applied };
    const text = fromLines(applied);
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
