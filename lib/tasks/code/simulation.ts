/**
 * The offline model's answers to the code task's prompts, deterministic from the rng it is given (the
 * SimulatedModel seeds it per request, so the same seed gives the same run).
 * - propose: for a benchmark project, works out from the prompt's files which reference steps the path has applied,
 *   then proposes `count` candidates for the next step drawn from the reference step and its wrong changes (a type
 *   error, a failing test, a diff that does not apply, a regression): the reference comes first about half the time,
 *   otherwise after a wrong one among the proposals, and is now and then missing. Files off the reference path (a
 *   wrong change that broke no test passes the check) get the first reference step that still applies to them.
 *   Changes the scratchpad lists as pruned are not offered again. For a local folder it cannot know a right change
 *   and says so, in words the parser rejects (no proposal), so the run ends unverified rather than on an invented
 *   diff.
 * - evaluate: scores the candidate by what it is (the reference or a wrong change, the last step or not), with noise,
 *   and misjudges it outright now and then (MISJUDGE_RATE), so a wrong change sometimes outranks the right one: the
 *   search runs it first, fails the check, backtracks and recovers.
 * - summarize: a few plain words (the synthesis after a search that found no answer).
 * Not responsible for judging a change (the sandbox does, through task.ts): the simulation only plays.
 */
import type { CompletionRequest } from '../../engine/index';
import { readPromptLine } from '../../engine/index';
import type { Rng, Simulation } from '../../models/index';
import { loadBenchProject } from './bench';
import { applyDiff, applyDiffs } from './diff';
import { MARKERS, promptKind } from './prompts';
import type { BenchProject, BenchStep, ProjectFiles } from './types';

/** Chance that the first proposal of a step is the reference change (what a single pass gets right). */
export const RIGHT_FIRST_RATE = 0.5;
/** Chance that, when it is not first, the reference is among the proposals at all. */
export const RIGHT_LATER_RATE = 0.85;

/** Chance that an evaluation takes a wrong change for a right one, or the right one for a doubtful one. */
export const MISJUDGE_RATE = 0.3;

/** Where the simulation says it cannot propose anything: no "PROPOSAL n:" heading, so the parser finds none. */
export const NO_PROPOSAL = 'I cannot propose a change here:';

/** XML text and attributes back to the characters they stand for (the reverse of escapeXml). */
function unescapeXml(text: string): string {
  return readPromptLine(text.replace(/&quot;/g, '"').replace(/&apos;/g, "'"));
}

function userText(request: CompletionRequest): string | null {
  for (const message of request.messages) {
    if (message.role === 'user' && promptKind(message.content)) return message.content;
  }
  return null;
}

function lineValue(text: string, label: string): string | null {
  const line = text.split('\n').find((l) => l.startsWith(`${label}: `));
  return line === undefined ? null : readPromptLine(line.slice(label.length + 2));
}

/** The benchmark project the prompt's "Project:" line names, or null (a local folder, or none). */
function benchOf(text: string): BenchProject | null {
  const project = lineValue(text, 'Project');
  return project?.startsWith('bench/') ? loadBenchProject(project.slice('bench/'.length)) : null;
}

/** The files of the prompt's <project> block. */
export function filesInPrompt(text: string): ProjectFiles {
  const files: ProjectFiles = {};
  const block = /<project>\n([\s\S]*?)\n?<\/project>/.exec(text)?.[1] ?? '';
  for (const match of block.matchAll(/<file path="([^"]*)">\n([\s\S]*?)\n<\/file>/g)) {
    files[unescapeXml(match[1] ?? '')] = unescapeXml(match[2] ?? '');
  }
  return files;
}

function sameFiles(a: ProjectFiles, b: ProjectFiles): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/** How many reference steps the files have applied, or null when they are no state of the reference solution. */
export function stepsApplied(bench: BenchProject, files: ProjectFiles): number | null {
  for (let k = 0; k <= bench.steps.length; k++) {
    const state = applyDiffs(
      bench.files,
      bench.steps.slice(0, k).map((s) => s.diff),
    );
    if (state.ok && sameFiles(state.files, files)) return k;
  }
  return null;
}

/**
 * The reference step to propose next: the one after the reference steps the files have applied; for files off the
 * reference path (a wrong change that broke no test), the first reference step whose diff still applies to them.
 */
export function nextStep(bench: BenchProject, files: ProjectFiles): BenchStep | undefined {
  const k = stepsApplied(bench, files);
  if (k !== null) return bench.steps[k];
  return bench.steps.find((step) => applyDiff(files, step.diff).ok);
}

/** The hypotheses the scratchpad lists as pruned (each summary starts with its hypothesis). */
function prunedSummaries(text: string): string[] {
  return [...text.matchAll(/<pruned_branch [^>]*>([^<]*)<\/pruned_branch>/g)].map((m) => unescapeXml(m[1] ?? ''));
}

interface Candidate {
  hypothesis: string;
  diff: string;
}

/** Up to `count` candidates for a step: the reference first, later or (rarely) not at all, and wrong changes. */
export function drawCandidates(step: BenchStep, count: number, rng: Rng, tried: readonly string[]): Candidate[] {
  const untried = (c: Candidate) => !tried.some((summary) => summary.startsWith(c.hypothesis));
  const wrong = rng.shuffle(step.wrong).filter(untried);
  const right = untried(step) ? [step] : [];
  let order: Candidate[];
  if (rng.next() < RIGHT_FIRST_RATE) order = [...right, ...wrong];
  else if (rng.next() < RIGHT_LATER_RATE && wrong.length > 0) {
    // later, but among the `count` proposed: a model that has the right idea offers it
    const at = 1 + rng.int(Math.max(1, Math.min(count - 1, wrong.length)));
    order = [...wrong.slice(0, at), ...right, ...wrong.slice(at)];
  } else order = wrong.length > 0 ? wrong : right;
  return order.slice(0, count).map((c) => ({ hypothesis: c.hypothesis, diff: c.diff }));
}

function formatProposals(candidates: readonly Candidate[]): string {
  return candidates
    .map((c, i) => {
      const diff = c.diff.endsWith('\n') ? c.diff : `${c.diff}\n`;
      return `PROPOSAL ${i + 1}: ${c.hypothesis}\n\`\`\`diff\n${diff}\`\`\``;
    })
    .join('\n\n');
}

function propose(text: string, rng: Rng): string {
  const bench = benchOf(text);
  if (!bench) {
    return `${NO_PROPOSAL} the offline model knows only the benchmark projects' changes, so it has no change to offer for ${lineValue(text, 'Project') ?? 'this project'}. Point a real model at this run to work on it.`;
  }
  const step = nextStep(bench, filesInPrompt(text));
  if (!step) return `${NO_PROPOSAL} no change I know applies to the project as it is now.`;
  const count = Number(/^Propose exactly (\d+) /m.exec(text)?.[1] ?? '3');
  const candidates = drawCandidates(step, Math.max(1, count), rng, prunedSummaries(text));
  if (candidates.length === 0) return `${NO_PROPOSAL} every change I know for this step has been tried.`;
  return formatProposals(candidates);
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The most confidence a candidate gets below a step that is not the reference one. */
const OFF_PATH_CONFIDENCE = 0.75;

/** The "1. text" lines under a heading, read back as written, up to the first line that is not one. */
function numberedList(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const at = lines.indexOf(heading);
  const out: string[] = [];
  for (const line of at < 0 ? [] : lines.slice(at + 1)) {
    const match = /^\d+\. (.*)$/.exec(line);
    if (!match) break;
    out.push(readPromptLine(match[1] ?? ''));
  }
  return out;
}

function evaluate(text: string, rng: Rng): string {
  const bench = benchOf(text);
  const candidate = lineValue(text, 'Candidate');
  const steps = bench?.steps ?? [];
  const index = steps.findIndex((s) => s.hypothesis === candidate);
  const wrongIndex = steps.findIndex((s) => s.wrong.some((w) => w.hypothesis === candidate));
  const r = rng.next();
  const novelty = round(0.4 + 0.4 * rng.next());
  const misjudged = rng.next() < MISJUDGE_RATE;
  // a step taken above that is not the reference (a wrong change that broke no test) leaves the model unsure that
  // anything completes the request: below the termination confidence, so the search goes on looking
  const reference = new Set(steps.map((s) => s.hypothesis));
  const offPath = numberedList(text, 'Verified steps so far:').some((h) => !reference.has(h));
  let scores: { confidence: number; progress: number; reasoning: string };
  if (index >= 0 && misjudged) {
    scores = {
      confidence: round(0.3 + 0.3 * r),
      progress: round((index + 0.5) / steps.length / 2),
      reasoning: 'I doubt this is the cause; it may not be enough.',
    };
  } else if (wrongIndex >= 0 && misjudged) {
    scores = {
      // as promising as a right step, yet short of the termination confidence: a wrong change that breaks no test
      // is not taken for the answer
      confidence: round(0.6 + 0.19 * r),
      progress: round((wrongIndex + 1) / steps.length),
      reasoning: 'This looks like the fix.',
    };
  } else if (index >= 0) {
    const last = index === steps.length - 1;
    scores = {
      // only the last step is worth stopping on; earlier ones stay below the termination confidence
      confidence: round(last ? 0.8 + 0.15 * r : 0.5 + 0.25 * r),
      progress: round((index + 1) / steps.length),
      reasoning: last ? 'This should complete the request.' : 'A sound step; more work remains after it.',
    };
  } else if (wrongIndex >= 0) {
    const last = wrongIndex === steps.length - 1;
    scores = {
      confidence: round(last ? 0.4 + 0.45 * r : 0.35 + 0.4 * r),
      progress: round(((wrongIndex + 0.5) / steps.length) * (0.5 + 0.5 * r)),
      reasoning: 'It looks plausible, though I am not sure it type-checks and keeps the tests passing.',
    };
  } else {
    scores = { confidence: 0.4, progress: 0.3, reasoning: 'I do not know this change.' };
  }
  return JSON.stringify({
    confidence: offPath ? Math.min(scores.confidence, OFF_PATH_CONFIDENCE) : scores.confidence,
    progress: scores.progress,
    novelty,
    reasoning: scores.reasoning,
  });
}

function summarize(text: string): string {
  const request = lineValue(text, 'Request') ?? 'the request';
  return `No step made every test pass, so there is no verified patch. The request was: ${request}`;
}

export const codeSimulation: Simulation = {
  taskId: 'code',
  recognizes: (request) => userText(request) !== null,
  respond(request, rng) {
    const text = userText(request) ?? '';
    switch (promptKind(text)) {
      case 'propose':
        return propose(text, rng);
      case 'evaluate':
        return evaluate(text, rng);
      case 'summarize':
        return summarize(text);
      default:
        return `${MARKERS.propose}: not a code prompt`;
    }
  },
};
