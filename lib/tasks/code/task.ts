/**
 * codeTask: a change to a small TypeScript project as a ThoughtTask. A node is a hypothesis (its thought) and a
 * unified diff against its parent's state (a code_change action); the state of a node is the project with every diff
 * of its path applied. Running a node applies its diff and verifies the result in the sandbox; the rule:
 *   - it passes when the diff applies, the type-check is clean and every test that passed at the base still passes
 *     (the base's results come from one baseline run per project, cached);
 *   - it is an answer when it passes and every test passes: the search stops expanding it.
 * A failed check fails the node with its trace (the verdict in one line, then the sandbox's trace), and the engine
 * prunes the branch to that line in the scratchpad and backtracks. The run's public output is the request and the
 * path's hypotheses, then one combined patch from the project to the winner's state, which `git apply` accepts.
 * Not responsible for prompt wording (prompts.ts), loading projects (project.ts), applying diffs (diff.ts), running
 * the checks (sandbox/) or the offline model (simulation.ts).
 */
import { formatCodeOutput } from '../../contract/code';
import type { Verification } from '../../contract/vocabulary';
import { openGoalTask, type ActionOutcome, type ThoughtNode, type ThoughtTask } from '../../engine/index';
import { applyDiff, applyDiffs, diffProjects } from './diff';
import { loadedProject, loadProject, projectGoalError, projectState, stepDiffs, type LoadedProject } from './project';
import { evaluatePrompt, parseCodeScore, parseProposals, proposePrompt, summarizePrompt } from './prompts';
import { traceOf, verifyInSandbox } from './sandbox/index';
import type { SandboxReport, TestResult } from './types';

/** What a diff changes, counted from its hunks. */
export interface DiffStat {
  files: number;
  added: number;
  removed: number;
}

/** Files, added and removed lines of a unified diff (hunk lines only, counted by the hunk headers). */
export function diffStat(diff: string): DiffStat {
  const stat: DiffStat = { files: 0, added: 0, removed: 0 };
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('+')) {
        stat.added += 1;
        newLeft -= 1;
      } else if (line.startsWith('-')) {
        stat.removed += 1;
        oldLeft -= 1;
      } else if (!line.startsWith('\\')) {
        oldLeft -= 1;
        newLeft -= 1;
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (line.startsWith('+++ ')) {
      stat.files += 1;
    }
  }
  return stat;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function formatDiffStat(stat: DiffStat): string {
  return `${plural(stat.files, 'file')} changed (+${stat.added} \u2212${stat.removed})`;
}

const testKey = (t: Pick<TestResult, 'file' | 'name'>) => `${t.file}\u0000${t.name}`;

/** The verdict of a sandbox report against the base's: passed, answer, and why in one line. */
export interface Judgement {
  passed: boolean;
  isAnswer: boolean;
  verdict: string;
  summary: string;
}

export function judge(base: SandboxReport, report: SandboxReport): Judgement {
  const results = report.tests.results;
  const passing = results.filter((t) => t.passed).length;
  const testsLine = `${passing}/${results.length} tests pass`;
  if (!report.typecheck.ok) {
    const count = report.typecheck.diagnostics.length;
    const first = report.typecheck.diagnostics[0] ?? 'the compiler reported an error';
    return {
      passed: false,
      isAnswer: false,
      verdict: `FAIL: type error: ${first}${count > 1 ? ` (and ${count - 1} more)` : ''}`,
      summary: `type-check failed (${plural(Math.max(count, 1), 'error')})`,
    };
  }
  if (report.tests.status === 'timed-out') {
    return {
      passed: false,
      isAnswer: false,
      verdict: 'FAIL: the tests ran past the time limit',
      summary: 'type-check clean; tests timed out',
    };
  }
  if (report.tests.status === 'error') {
    const why = report.tests.output.split('\n').find((l) => l.trim()) ?? 'no output';
    return {
      passed: false,
      isAnswer: false,
      verdict: `FAIL: the tests could not run: ${why.trim()}`,
      summary: 'type-check clean; tests could not run',
    };
  }
  const now = new Map(results.map((t) => [testKey(t), t.passed]));
  const regressed = base.tests.results.filter((t) => t.passed && now.get(testKey(t)) !== true);
  if (regressed.length > 0) {
    const names = regressed.slice(0, 3).map((t) => `${t.name} (${t.file})`);
    const more = regressed.length > 3 ? `, and ${regressed.length - 3} more` : '';
    return {
      passed: false,
      isAnswer: false,
      verdict: `FAIL: ${plural(regressed.length, 'test')} that passed before now ${regressed.length === 1 ? 'fails' : 'fail'}: ${names.join(', ')}${more}`,
      summary: `type-check clean; ${testsLine}`,
    };
  }
  const isAnswer = report.tests.status === 'passed' && results.length > 0 && passing === results.length;
  return {
    passed: true,
    isAnswer,
    verdict: isAnswer
      ? `PASS: type-check clean; all ${plural(results.length, 'test')} pass`
      : `PASS: type-check clean; every test that passed before still passes (${testsLine})`,
    summary: `type-check clean; ${testsLine}`,
  };
}

const baselines = new Map<string, Promise<SandboxReport>>();

/**
 * The project's own report before any change, once per project key: which tests pass at the base. Run with
 * alwaysRunTests (a project may start with a type error) and without a run's signal, since every run shares it.
 */
export function baselineReport(project: LoadedProject): Promise<SandboxReport> {
  let pending = baselines.get(project.key);
  if (!pending) {
    pending = verifyInSandbox({ files: project.files, tests: project.tests, alwaysRunTests: true });
    pending.catch(() => baselines.delete(project.key));
    baselines.set(project.key, pending);
  }
  return pending;
}

function failed(response: string, verdict: string): ActionOutcome {
  return { response, verification: { passed: false, trace: verdict }, isAnswer: false };
}

/** Applies the node's diff to its parent's state and verifies the result (the rule in the header). */
async function runCodeAction(
  goal: string,
  node: ThoughtNode,
  path: readonly ThoughtNode[],
  signal: AbortSignal,
): Promise<ActionOutcome> {
  const action = node.branch?.proposedAction;
  if (!action || action.type !== 'code_change') {
    return failed('not a code change', 'FAIL: the step is not a code change (a unified diff)');
  }
  const project = await loadProject(goal);
  const above = projectState(project, path.at(-1)?.id === node.id ? path.slice(0, -1) : path);
  if (!above.ok) return failed('the steps above do not apply', `FAIL: the steps above do not apply: ${above.reason}`);
  const applied = applyDiff(above.files, action.diff);
  const stat = formatDiffStat(diffStat(action.diff));
  if (!applied.ok)
    return failed(`${stat}; the diff does not apply`, `FAIL: the diff does not apply: ${applied.reason}`);
  // one after the other: on a cold server the two at once share its cores, and a slow test run is a failed one
  const base = await baselineReport(project);
  const report = await verifyInSandbox({ files: applied.files, tests: project.tests }, signal);
  const verdict = judge(base, report);
  const verification: Verification = { passed: verdict.passed, trace: `${verdict.verdict}\n${traceOf(report)}` };
  return { response: `${stat}; ${verdict.summary}`, verification, isAnswer: verdict.isAnswer };
}

/** The path's code steps, root first. */
function codeSteps(path: readonly ThoughtNode[]): ThoughtNode[] {
  return path.filter((n) => n.branch?.proposedAction.type === 'code_change');
}

/** The public output: the request and the path's hypotheses, then one patch from the project to the path's end. */
export async function codeOutput(path: readonly ThoughtNode[], goal: string): Promise<string> {
  const project = await loadProject(goal);
  const final = applyDiffs(project.files, stepDiffs(path));
  if (!final.ok) throw new Error(`the winning path does not apply: ${final.reason}`);
  const patch = diffProjects(project.files, final.files);
  if (!patch.trim()) throw new Error('the winning path changes nothing');
  const steps = codeSteps(path).map((n, i) => `${i + 1}. ${n.branch?.thought ?? ''}`);
  return formatCodeOutput({ description: [project.request, '', 'Steps:', ...steps].join('\n'), patch });
}

export const codeTask: ThoughtTask = {
  id: 'code',

  buildGenerationPrompt(ctx) {
    const project = loadedProject(ctx.goal);
    const state = projectState(project, ctx.path);
    // the path's steps all applied when they ran; a state that no longer applies shows the project as it was
    return proposePrompt({
      instructions: ctx.instructions,
      title: project.title,
      request: project.request,
      files: state.ok ? state.files : project.files,
      scratchpad: ctx.scratchpad,
      count: ctx.count,
    });
  },

  parseBranches: (text, ctx) => parseProposals(text, ctx.count),

  // Invented changes would be worse than none: with no branches the expansion fails and the engine backtracks.
  fallbackBranches: () => [],

  buildEvaluationPrompt(ctx) {
    const project = loadedProject(ctx.goal);
    return evaluatePrompt({
      instructions: ctx.instructions,
      title: project.title,
      request: project.request,
      steps: codeSteps(ctx.path).map((n) => n.branch?.thought ?? ''),
      branch: ctx.branch,
      siblings: ctx.siblings,
    });
  },

  parseScore: (text) => parseCodeScore(text),

  // runAction carries out every node of this task; the open goal's execution prompt is never sent.
  buildExecutionPrompt: (ctx) => openGoalTask.buildExecutionPrompt(ctx),
  isExecutionDone: () => true,

  buildSynthesisPrompt(ctx) {
    const project = loadedProject(ctx.goal);
    return summarizePrompt({
      instructions: ctx.instructions,
      title: project.title,
      request: project.request,
      steps: codeSteps(ctx.path).map((n) => ({
        hypothesis: n.branch?.thought ?? '',
        outcome: n.verification?.trace.split('\n')[0] ?? n.result?.response ?? 'not run',
      })),
    });
  },

  runAction: (ctx) => runCodeAction(ctx.goal, ctx.node, ctx.path, ctx.signal),

  finalOutput: (path, goal) => codeOutput(path, goal),

  // Only a patch built from a verified path is verified; a synthesised text is words about a change, never one.
  verifyOutput: () => ({
    passed: false,
    trace: 'a synthesised output is not verified: only a patch built from a path whose every test passes is',
  }),

  isAnswer: (node) => node.result?.isAnswer === true,
  isTerminal: (node) => node.result?.isAnswer === true,

  validateGoal: projectGoalError,

  prepare: async (goal) => {
    await loadProject(goal);
  },
};
