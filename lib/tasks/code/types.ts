/**
 * The code task's shared shapes, agreed between its parts: a project's files, the sandbox's request and report,
 * and a benchmark project as stored under bench/<id>/.
 * Not responsible for behaviour: diff.ts applies and combines diffs, sandbox/ verifies, bench.ts loads the
 * benchmark, project.ts loads a goal's project, task.ts and simulation.ts are the ThoughtTask and its offline model.
 */

/** A project's text files by path relative to its root, posix separators ("src/range.ts"). */
export type ProjectFiles = Record<string, string>;

/** Limits of one sandboxed verification. */
export interface SandboxLimits {
  /** Wall-clock limit of the test run (the type-check has its own); the process group is killed past it. */
  testTimeMs: number;
  /** The test process's V8 heap limit (--max-old-space-size). */
  memoryMb: number;
  /** Wall-clock limit of the type-check (its worker is terminated past it). */
  typecheckTimeMs?: number;
}

export interface SandboxRequest {
  files: ProjectFiles;
  /** Test files to run (paths in `files`, `.ts`); each is compiled to JS and run with node in the sandbox. */
  tests: string[];
  limits?: Partial<SandboxLimits>;
  /** Run the tests even when the type-check fails (the baseline of a project that starts with a type error). */
  alwaysRunTests?: boolean;
}

/** One test's outcome (node:test reports each `test(...)` by name). */
export interface TestResult {
  file: string;
  name: string;
  passed: boolean;
}

export interface SandboxReport {
  typecheck: {
    ok: boolean;
    /** The compiler's diagnostics as tsc prints them ("src/a.ts(3,5): error TS2322: Type 'string' is ..."). */
    diagnostics: string[];
    ms: number;
  };
  tests: {
    /** skipped: not run (the type-check failed); timed-out: killed at the limit; error: could not start or crashed. */
    status: 'passed' | 'failed' | 'timed-out' | 'skipped' | 'error';
    results: TestResult[];
    /** Their output, trimmed to a readable size (head and tail kept). */
    output: string;
    ms: number;
    /** The time limit the tests ran under (ms), so a trace can say "timed out after 10 s". */
    timeLimitMs?: number;
  };
}

/** A wrong change a benchmark offers next to the reference step, and how it goes wrong. */
export interface BenchWrongChange {
  hypothesis: string;
  diff: string;
  fails: 'type-error' | 'failing-test' | 'does-not-apply' | 'regression';
}

/** One step of a benchmark's reference solution: its diff applies to the state after the steps before it. */
export interface BenchStep {
  hypothesis: string;
  diff: string;
  wrong: BenchWrongChange[];
}

/** A benchmark project: the project before the change, what to change, and a reference solution in steps. */
export interface BenchProject {
  id: string;
  title: string;
  /** The change request, as a person would write it. */
  request: string;
  kind: 'wrong-type' | 'failing-test' | 'rename' | 'api-migration' | 'feature' | 'bug';
  files: ProjectFiles;
  /** Its test files (paths in `files`). */
  tests: string[];
  steps: BenchStep[];
}

/** What the run form lists of a benchmark project. */
export type BenchProjectInfo = Pick<BenchProject, 'id' | 'title' | 'request' | 'kind'> & { steps: number };
