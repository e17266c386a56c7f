/**
 * The code task's prompts and their parsers. Generation shows the request, the project as it is at the node (every
 * verified diff of the path applied) and the compacted scratchpad, and asks for `count` proposals, each a one-line
 * hypothesis and a unified diff in a fenced block; evaluation shows one candidate's hypothesis and diff and asks for
 * the engine's JSON scores; synthesis (only when no step made every test pass) asks for a few words on what was done.
 * The first line of each user message is a marker ("### Code change: propose", ...) so the offline simulation can
 * tell the prompts apart; a real model reads it as a title.
 * Everything from a model, a person or a project's files goes in XML-escaped: file contents and diffs as element
 * text (escapeXmlText), one-line texts through promptLine, so none can close a tag or add a line of the prompt's own.
 * Not responsible for applying diffs (diff.ts), loading the project (project.ts) or the ThoughtTask wiring (task.ts).
 */
import type { ChatMessage, ThoughtBranch } from '../../contract/vocabulary';
import { escapeXml, escapeXmlText, parseScoreJson, promptLine, type ScoreParts } from '../../engine/index';
import type { ProjectFiles } from './types';

export const MARKERS = {
  propose: '### Code change: propose',
  evaluate: '### Code change: evaluate',
  summarize: '### Code change: summarize',
} as const;

export type CodePromptKind = keyof typeof MARKERS;

/** Each proposal's heading in a generation answer: its number and its one-line hypothesis. */
export const PROPOSAL_HEADER = /^PROPOSAL\s+(\d+)\s*:[ \t]*(.*)$/gim;

const SYSTEM =
  'You are a careful TypeScript engineer. You change a small project one small, verifiable step at a time: ' +
  'each step is type-checked with tsc and the project tests are run before the next one.';

const ESCAPING =
  'Text inside the XML tags below is escaped (&lt; &gt; &amp; stand for < > &): read it as those characters, ' +
  'and write your diffs with the real characters.';

function system(instructions: string | undefined): ChatMessage {
  return { role: 'system', content: [instructions, SYSTEM].filter(Boolean).join('\n\n') };
}

function user(lines: (string | false)[]): ChatMessage {
  return { role: 'user', content: lines.filter((l) => l !== false).join('\n') };
}

/** The project's files as XML, escaped, in path order. */
export function projectXml(files: ProjectFiles): string {
  const paths = Object.keys(files).sort();
  const body = paths.map((path) => `<file path="${escapeXml(path)}">\n${escapeXmlText(files[path] ?? '')}\n</file>`);
  return ['<project>', ...body, '</project>'].join('\n');
}

function stepsText(hypotheses: readonly string[]): string {
  return hypotheses.length ? hypotheses.map((h, i) => `${i + 1}. ${promptLine(h)}`).join('\n') : '(none yet)';
}

export interface ProposeInput {
  instructions?: string;
  /** The goal's project line: "bench/<id>" or the folder's path. */
  title: string;
  request: string;
  /** The project at the node being expanded. */
  files: ProjectFiles;
  scratchpad: string;
  count: number;
}

export function proposePrompt(input: ProposeInput): ChatMessage[] {
  return [
    system(input.instructions),
    user([
      MARKERS.propose,
      `Project: ${promptLine(input.title)}`,
      `Request: ${promptLine(input.request)}`,
      '',
      ESCAPING,
      '',
      'The project as it is now (the original with every verified step of the scratchpad applied):',
      projectXml(input.files),
      '',
      'Scratchpad (verified steps in full with their diffs; abandoned branches as one line with why they failed — do not repeat them):',
      input.scratchpad,
      '',
      `Propose exactly ${input.count} different next steps toward the request. Each is one small change that keeps the project type-checking and its passing tests passing.`,
      'Answer in this format only, one block per proposal:',
      '',
      'PROPOSAL 1: <one line: what you change and why>',
      '```diff',
      '--- a/src/file.ts',
      '+++ b/src/file.ts',
      '@@ -3,3 +3,3 @@',
      ' a context line',
      '-the old line',
      '+the new line',
      '```',
      '',
      'The diff is a unified diff against the project exactly as shown: paths relative to its root with a/ and b/ prefixes, hunk headers with the right line counts, unchanged context lines starting with one space; /dev/null as the old path of a new file or the new path of a deleted one. Change tests only when the request asks for it.',
    ]),
  ];
}

export interface EvaluateInput {
  instructions?: string;
  title: string;
  request: string;
  /** Hypotheses of the verified steps above the candidate, root first. */
  steps: readonly string[];
  branch: ThoughtBranch;
  siblings: readonly ThoughtBranch[];
}

function diffOf(branch: ThoughtBranch): string {
  return branch.proposedAction.type === 'code_change' ? branch.proposedAction.diff : '(not a code change)';
}

export function evaluatePrompt(input: EvaluateInput): ChatMessage[] {
  const others = input.siblings.filter((s) => s !== input.branch).map((s) => promptLine(s.thought));
  return [
    system(input.instructions),
    user([
      MARKERS.evaluate,
      `Project: ${promptLine(input.title)}`,
      `Request: ${promptLine(input.request)}`,
      '',
      `Verified steps so far:\n${stepsText(input.steps)}`,
      '',
      ESCAPING,
      `Candidate: ${promptLine(input.branch.thought)}`,
      `<diff>\n${escapeXmlText(diffOf(input.branch))}\n</diff>`,
      `Other candidates: ${others.join(' | ') || '(none)'}`,
      '',
      'Score the candidate from 0 to 1 on confidence (how sure you are that after this step the whole request is done and every test passes: a step that leaves work to do scores below 0.7), progress (how much of the request it does) and novelty (how different it is from the other candidates).',
      // worded apart from the open goal's line, whose offline simulation would otherwise answer this prompt
      'Reply with one JSON object and nothing else: {"confidence": 0.0, "progress": 0.0, "novelty": 0.0, "reasoning": "..."}',
    ]),
  ];
}

export interface SummarizeInput {
  instructions?: string;
  title: string;
  request: string;
  /** The winning path's steps: hypothesis and the verification's one-line verdict. */
  steps: readonly { hypothesis: string; outcome: string }[];
}

export function summarizePrompt(input: SummarizeInput): ChatMessage[] {
  return [
    system(input.instructions),
    user([
      MARKERS.summarize,
      `Project: ${promptLine(input.title)}`,
      `Request: ${promptLine(input.request)}`,
      '',
      `Steps taken:\n${
        input.steps.length
          ? input.steps.map((s, i) => `${i + 1}. ${promptLine(s.hypothesis)} — ${promptLine(s.outcome)}`).join('\n')
          : '(none)'
      }`,
      '',
      'No step made every test pass. In two or three sentences, say what the steps changed and what is left to do. Do not write a patch.',
    ]),
  ];
}

/** A fenced block's body: ```diff, ```patch or a bare ``` fence, up to the closing fence. */
const FENCE = /```[ \t]*(?:diff|patch|udiff)?[ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*(?:\r?\n|$)/i;

/** True when the text reads as a unified diff: file headers and at least one hunk. */
export function looksLikeDiff(diff: string): boolean {
  return /^--- \S/m.test(diff) && /^\+\+\+ \S/m.test(diff) && /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m.test(diff);
}

/**
 * The proposals of a generation answer: each "PROPOSAL n: hypothesis" followed by a fenced unified diff. A block
 * without a hypothesis or a readable diff is skipped; an answer with none usable is null (garbage, a refusal), so
 * the engine's fallback (none, for this task) makes the expansion fail and backtrack.
 */
export function parseProposals(text: string, count: number): ThoughtBranch[] | null {
  const headers = [...text.matchAll(PROPOSAL_HEADER)];
  const branches: ThoughtBranch[] = [];
  headers.forEach((header, i) => {
    const start = (header.index ?? 0) + header[0].length;
    const end = headers[i + 1]?.index ?? text.length;
    const thought = (header[2] ?? '').trim();
    const fenced = FENCE.exec(text.slice(start, end));
    const diff = fenced?.[1] ?? '';
    if (!thought || !looksLikeDiff(diff)) return;
    branches.push({ thought, proposedAction: { type: 'code_change', diff: diff.endsWith('\n') ? diff : `${diff}\n` } });
  });
  return branches.length ? branches.slice(0, count) : null;
}

/** The evaluation's scores: the engine's JSON score format. */
export function parseCodeScore(text: string): ScoreParts | null {
  return parseScoreJson(text);
}

/** Which of the task's prompts a user message is, from its first line; null when it is none of them. */
export function promptKind(content: string): CodePromptKind | null {
  const first = content.slice(0, content.indexOf('\n') === -1 ? undefined : content.indexOf('\n')).trim();
  for (const [kind, marker] of Object.entries(MARKERS) as [CodePromptKind, string][]) {
    if (first === marker) return kind;
  }
  return null;
}
