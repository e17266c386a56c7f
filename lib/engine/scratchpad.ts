/**
 * The compacted scratchpad given to the model: the steps on the current path in full (with their verification
 * traces), every failed or pruned branch folded to a one-line summary, so the model does not repeat a failed
 * experiment and the prompt stays small. All text is XML-escaped: it comes from models and people.
 * Also the one place model text is escaped for the prompts' own lines outside the scratchpad (promptLine).
 * Not responsible for deciding what failed (reduce does) or how a task words its prompt.
 */
import type { ProposedAction } from '../contract/vocabulary';
import type { ThoughtNode, ThoughtTree } from './types';
import { pathTo } from './tree';

/** How many folded dead ends the scratchpad keeps (the most recent ones). */
export const MAX_SUMMARIES = 20;
const SUMMARY_CHARS = 120;

/** Text for XML element content: & < > escaped (quotes need none there). */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for XML content or attributes. */
export function escapeXml(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * Model text on a line of a prompt outside the scratchpad ("Steps so far", "Candidate:", a move line): escaped as
 * XML content, its line breaks written &#10;, so it stays on its one line and can neither close the scratchpad nor
 * start a line of the prompt's own (a label, a numbered step, a verdict). Text without < > & or line breaks (every
 * legal Game of 24 line) is unchanged.
 */
export function promptLine(text: string): string {
  return escapeXmlText(text).replace(/\r\n|\r|\n/g, '&#10;');
}

/** promptLine's text as the model wrote it: for readers of prompts (the offline simulations, test models). */
export function readPromptLine(line: string): string {
  return line.replace(/&#10;/g, '\n').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export function describeAction(action: ProposedAction): string {
  switch (action.type) {
    case 'response':
      return `respond: ${action.content}`;
    case 'sub_goal':
      return `sub-goal: ${action.goal}`;
    case 'tool_call':
      return `call ${action.toolName}(${JSON.stringify(action.arguments)})`;
    case 'code_change':
      return `change:\n${action.diff}`;
  }
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? text;
}

function oneLine(text: string, max = SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The scratchpad as seen from `focusId` (the node being expanded or run). */
export function renderScratchpad(tree: ThoughtTree, focusId: string): string {
  const lines = ['<thinking_scratchpad>'];
  for (const node of pathTo(tree, focusId)) {
    if (!node.branch) continue;
    lines.push(...renderStep(node));
  }
  for (const id of tree.deadEnds.slice(-MAX_SUMMARIES)) {
    const node = tree.nodes[id];
    if (!node) continue;
    const why =
      node.status === 'pruned'
        ? `pruned by ${node.prunedBy ?? 'a person'}`
        : oneLine(
            // a trace's first line is its verdict (the code task's "FAIL: type error: …"); the rest is detail
            firstLine(
              node.verification && !node.verification.passed
                ? node.verification.trace
                : (node.failureReason ?? 'failed'),
            ),
          );
    lines.push(
      `  <pruned_branch id="${escapeXml(node.id)}" depth="${node.depth}">${escapeXml(
        oneLine(`${node.branch?.thought ?? ''} (${why})`, SUMMARY_CHARS * 2),
      )}</pruned_branch>`,
    );
  }
  lines.push('</thinking_scratchpad>');
  return lines.join('\n');
}

/**
 * The history the scratchpad compacts, for comparison only (bench:code measures what compaction saves): every
 * explored node in creation order, in full, with its delta and whole trace, failed branches included.
 */
export function renderFullHistory(tree: ThoughtTree): string {
  const lines = ['<thinking_scratchpad>'];
  for (const id of tree.nodeOrder) {
    const node = tree.nodes[id];
    if (!node?.branch || (node.result === null && node.verification === null && node.failureReason === null)) continue;
    const step = renderStep(node);
    if (node.failureReason !== null && !node.verification) {
      step.splice(-1, 0, `    <failure>${escapeXml(node.failureReason)}</failure>`);
    }
    lines.push(...step);
  }
  lines.push('</thinking_scratchpad>');
  return lines.join('\n');
}

function renderStep(node: ThoughtNode): string[] {
  const branch = node.branch;
  if (!branch) return [];
  const status = node.verification?.passed ? 'VERIFIED' : node.status.toUpperCase();
  const out = [
    `  <step id="${escapeXml(node.id)}" depth="${node.depth}" parent="${escapeXml(node.parentId ?? 'none')}" status="${status}">`,
    `    <hypothesis>${escapeXml(branch.thought)}</hypothesis>`,
    `    <action_proposal>${escapeXml(describeAction(branch.proposedAction))}</action_proposal>`,
  ];
  if (node.result) out.push(`    <result>${escapeXml(node.result.response)}</result>`);
  if (node.verification) {
    out.push(
      `    <verification_trace status="${node.verification.passed ? 'PASS' : 'FAIL'}">${escapeXml(node.verification.trace)}</verification_trace>`,
    );
  }
  out.push('  </step>');
  return out;
}
