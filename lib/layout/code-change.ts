// How a code run's nodes read on screen: the verdict of a node's verification (passed, type error, tests failed, the
// diff does not apply) from the first line of its trace, a diff as the diff view parses it (git-style file headers),
// and a diff's size in lines. Pure; the canvas cards, the inspector's diff view and the public output read it.
// Not responsible for verifying anything (lib/tasks/code, on the server) nor for drawing the diff (components).
import type { Verification } from '../contract/vocabulary';
import type { ThoughtNode } from '../engine/index';

export type CodeVerdict = 'passed' | 'type-error' | 'tests-failed' | 'does-not-apply' | 'failed';

export const CODE_VERDICT_LABELS: Record<CodeVerdict, string> = {
  passed: 'tests pass',
  'type-error': 'type error',
  'tests-failed': 'tests failed',
  'does-not-apply': 'does not apply',
  failed: 'check failed',
};

/**
 * The verdict of a verification, read from its trace's first line (the code task writes its verdict there in one
 * line; the lines after it are the compiler's diagnostics and the test output). Ordered from the earliest stage: a
 * diff that does not apply was never compiled, a type error stops the tests.
 */
export function codeVerdict(verification: Pick<Verification, 'passed' | 'trace'>): CodeVerdict {
  if (verification.passed) return 'passed';
  const first = (verification.trace.split('\n').find((line) => line.trim()) ?? '').toLowerCase();
  if (/\b(does not|did not|doesn['’]t|cannot|could not|won['’]t) apply\b|\bnot appl(y|ied)\b/.test(first)) {
    return 'does-not-apply';
  }
  if (/type[- ]?(error|check)|typecheck|\bts\d{4}\b|compil/.test(first)) return 'type-error';
  if (/\btests?\b|timed? ?out|time limit/.test(first)) return 'tests-failed';
  return 'failed';
}

/** A node's verdict when it is a verified or failed code change; null for any other node. */
export function nodeCodeVerdict(node: Pick<ThoughtNode, 'branch' | 'verification'>): CodeVerdict | null {
  if (node.branch?.proposedAction.type !== 'code_change' || !node.verification) return null;
  return codeVerdict(node.verification);
}

/** Strips a/ or b/ and a trailing tab-separated timestamp from a ---/+++ path. */
function headerPath(rest: string): string {
  const path = rest.split('\t')[0]?.trim() ?? '';
  if (path === '/dev/null') return path;
  return path.replace(/^[ab]\//, '');
}

/**
 * The diff with a `diff --git a/<path> b/<path>` line before every file that has none (a plain unified diff, as
 * jsdiff or `diff -u` write it, with or without `Index:` lines), since the diff view's parser starts a file only at
 * such a line. A git diff comes back unchanged; new and deleted files (`/dev/null`) get git's mode lines.
 */
export function asGitDiff(diff: string): string {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let inGitFile = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('diff --git ')) {
      inGitFile = true;
      out.push(line);
      continue;
    }
    if (line.startsWith('@@')) {
      out.push(line);
      continue;
    }
    const next = lines[i + 1] ?? '';
    if (line.startsWith('--- ') && next.startsWith('+++ ')) {
      if (!inGitFile) {
        const from = headerPath(line.slice(4));
        const to = headerPath(next.slice(4));
        const path = to === '/dev/null' ? from : to;
        out.push(`diff --git a/${path} b/${path}`);
        if (from === '/dev/null') out.push('new file mode 100644');
        if (to === '/dev/null') out.push('deleted file mode 100644');
        out.push(from === '/dev/null' ? '--- /dev/null' : `--- a/${from}`);
        out.push(to === '/dev/null' ? '+++ /dev/null' : `+++ b/${to}`);
        i++;
        continue;
      }
      // the file's own header: the next file needs its own `diff --git` line or a header of this form
      inGitFile = false;
      out.push(line, next);
      i++;
      continue;
    }
    // jsdiff's `Index: path` and `====` lines name the file again: the header above replaces them
    if (!inGitFile && (line.startsWith('Index: ') || /^={10,}$/.test(line))) continue;
    out.push(line);
  }
  return out.join('\n');
}

/** Lines added and removed by a diff (its `+`/`-` lines, file headers left out). */
export function diffSize(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export type TraceTone = 'diagnostic' | 'pass' | 'fail' | 'plain';

/**
 * A verification trace's lines after its verdict line, each with a tone the output block colours it by: a compiler
 * diagnostic ("src/a.ts(3,5): error TS2322: ..."), a passing or failing test (node:test's TAP "ok"/"not ok" and its
 * spec reporter's ✔/✖), or plain text.
 */
export function traceLines(trace: string): { text: string; tone: TraceTone }[] {
  const lines = trace.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim());
  return lines.slice(start < 0 ? lines.length : start + 1).map((text) => ({ text, tone: toneOf(text) }));
}

function toneOf(line: string): TraceTone {
  const t = line.trim();
  if (/\berror TS\d+\b/.test(t)) return 'diagnostic';
  // the sandbox's summary lines (traceOf: "type-check: clean", "tests: 2 passed, 1 failed (name)", "tests: timed out ...")
  if (/^type-check: clean\b/.test(t)) return 'pass';
  if (/^type-check: \d+ errors?\b/.test(t)) return 'fail';
  if (/^tests: (timed out|could not run|failed)\b|^tests: \d+ passed, [1-9]\d* failed\b/.test(t)) return 'fail';
  if (/^tests: \d+ passed(, 0 failed)?\b/.test(t)) return 'pass';
  if (/^not ok\b|^✖|^# fail [1-9]|^(fail|failed)\b/i.test(t)) return 'fail';
  if (/^ok\b|^✔|^# pass [1-9]/i.test(t)) return 'pass';
  return 'plain';
}

/** The syntax the diff view highlights a file in, by its extension; null: shown as plain text. */
export function languageOf(path: string): 'typescript' | 'tsx' | 'javascript' | 'jsx' | 'json' | null {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  switch (ext) {
    case 'ts':
    case 'mts':
    case 'cts':
      return 'typescript';
    case 'tsx':
      return 'tsx';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'jsx':
      return 'jsx';
    case 'json':
      return 'json';
    default:
      return null;
  }
}
