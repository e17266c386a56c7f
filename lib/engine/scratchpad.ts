/**
 * The compacted scratchpad given to the model: the steps on the current path in full (with their verification
 * traces), every failed or pruned branch folded to a one-line summary, so the model does not repeat a failed
 * experiment and the prompt stays small. All text is XML-escaped: it comes from models and people.
 * Also the one place model text is escaped for the prompts' own lines outside the scratchpad (promptLine).
 *
 * Rendered incrementally, since it is asked for on every step of a search: a step's XML and a dead end's summary line
 * are rendered and escaped once per node object and kept in WeakMaps beside the tree. That is sound because reduce
 * replaces a node object whenever anything of it changes (never mutates one), so a changed node is a new key and
 * renders afresh; and the path's steps are joined reusing the last render's text for the nodes the two paths share
 * (PrefixJoin). The text is exactly what a full render gives (scratchpad.test.ts checks it on every step of runs).
 * Not responsible for deciding what failed (reduce does) or how a task words its prompt.
 */
import type { ProposedAction } from '../contract/vocabulary';
import type { ThoughtNode, ThoughtTree } from './types';
import { PrefixJoin } from './prefix-join';
import { pathTo } from './tree';

/** How many folded dead ends the scratchpad keeps (the most recent ones). */
export const MAX_SUMMARIES = 20;
const SUMMARY_CHARS = 120;

// Most text has nothing to escape: one test of the string is much cheaper than a replace() per character class.
const XML_TEXT_SPECIAL = /[&<>]/;
const XML_SPECIAL = /[&<>"']/;
const LINE_BREAK = /[\r\n]/;

/** Text for XML element content: & < > escaped (quotes need none there). */
export function escapeXmlText(text: string): string {
  if (!XML_TEXT_SPECIAL.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for XML content or attributes. */
export function escapeXml(text: string): string {
  if (!XML_SPECIAL.test(text)) return text;
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * Model text on a line of a prompt outside the scratchpad ("Steps so far", "Candidate:", a move line): escaped as
 * XML content, its line breaks written &#10;, so it stays on its one line and can neither close the scratchpad nor
 * start a line of the prompt's own (a label, a numbered step, a verdict). Text without < > & or line breaks (every
 * legal Game of 24 line) is unchanged.
 */
export function promptLine(text: string): string {
  const escaped = escapeXmlText(text);
  return LINE_BREAK.test(escaped) ? escaped.replace(/\r\n|\r|\n/g, '&#10;') : escaped;
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
  const steps: ThoughtNode[] = [];
  for (const node of pathTo(tree, focusId)) if (node.branch) steps.push(node);
  let text = '<thinking_scratchpad>';
  if (steps.length > 0) text += `\n${pathSteps(tree).join(steps)}`;
  const summaries = deadEndSummaries(tree);
  if (summaries) text += `\n${summaries}`;
  return `${text}\n</thinking_scratchpad>`;
}

/** Per tree, the path's steps joined, reusing the last render's for the nodes the paths share (same objects). */
const pathStepJoins = new WeakMap<ThoughtTree, PrefixJoin<ThoughtNode>>();

function pathSteps(tree: ThoughtTree): PrefixJoin<ThoughtNode> {
  let join = pathStepJoins.get(tree);
  if (!join) {
    join = new PrefixJoin(stepText);
    pathStepJoins.set(tree, join);
  }
  return join;
}

/** A step's XML (renderStep's lines joined), rendered once per node object. */
const renderedSteps = new WeakMap<ThoughtNode, string>();

function stepText(node: ThoughtNode): string {
  let text = renderedSteps.get(node);
  if (text === undefined) {
    text = renderStep(node).join('\n');
    renderedSteps.set(node, text);
  }
  return text;
}

/** A dead end's one-line summary, rendered once per node object. */
const renderedSummaries = new WeakMap<ThoughtNode, string>();

function summaryLine(node: ThoughtNode): string {
  let line = renderedSummaries.get(node);
  if (line !== undefined) return line;
  const why =
    node.status === 'pruned'
      ? `pruned by ${node.prunedBy ?? 'a person'}`
      : oneLine(
          // a trace's first line is its verdict (the code task's "FAIL: type error: …"); the rest is detail
          firstLine(
            node.verification && !node.verification.passed ? node.verification.trace : (node.failureReason ?? 'failed'),
          ),
        );
  line = `  <pruned_branch id="${escapeXml(node.id)}" depth="${node.depth}">${escapeXml(
    oneLine(`${node.branch?.thought ?? ''} (${why})`, SUMMARY_CHARS * 2),
  )}</pruned_branch>`;
  renderedSummaries.set(node, line);
  return line;
}

/**
 * The last MAX_SUMMARIES dead ends' lines, joined; the block is kept per tree with the node objects it was built
 * from, and built again only when one of them is another object (a new dead end, a dead node changed).
 */
const summaryBlocks = new WeakMap<ThoughtTree, { nodes: ThoughtNode[]; text: string }>();

function deadEndSummaries(tree: ThoughtTree): string {
  const nodes: ThoughtNode[] = [];
  const deadEnds = tree.deadEnds;
  for (let i = Math.max(0, deadEnds.length - MAX_SUMMARIES); i < deadEnds.length; i++) {
    const node = tree.nodes[deadEnds[i] as string];
    if (node) nodes.push(node);
  }
  const cached = summaryBlocks.get(tree);
  if (cached && cached.nodes.length === nodes.length && cached.nodes.every((node, i) => node === nodes[i])) {
    return cached.text;
  }
  const text = nodes.map(summaryLine).join('\n');
  summaryBlocks.set(tree, { nodes, text });
  return text;
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
