/**
 * The engine's own task, the open goal: the JSON prompts of the executor docs and their parsers.
 * Generation asks for N approaches as JSON, evaluation for three scores in [0,1], execution for a final answer.
 * Every piece of model text (thoughts, actions, results) goes in through promptLine: escaped, on its own line.
 * The goal and the instructions are the person's own words and go in as they are.
 * Not responsible for other tasks' prompts (lib/tasks) or for the model's transport (lib/models).
 */
import { openGoalError } from '../contract/tasks';
import { extractJson } from './json';
import { PrefixJoin } from './prefix-join';
import { describeAction, promptLine } from './scratchpad';
import type { ChatMessage, ProposedAction, ThoughtBranch } from '../contract/vocabulary';
import type { ExecutionContext, GenerationContext, ScoreParts, ThoughtTask } from './types';

/** Marks the last turn of a branch run; the docs' executor stops a branch when it sees it. */
export const FINAL_MARKER = 'FINAL ANSWER:';

function system(instructions: string | undefined, role: string): ChatMessage {
  return { role: 'system', content: [instructions, role].filter(Boolean).join('\n\n') };
}

type PathSteps = readonly { branch: ThoughtBranch | null }[];

/** A step's path as text, kept per path array: an expansion's generation and its evaluations share one. */
const pathTexts = new WeakMap<PathSteps, string>();

/** The numbered thoughts, reusing the last path's lines for the branches the two paths share. */
const numberedThoughts = new PrefixJoin(
  (branch: ThoughtBranch, i: number) => `${i + 1}. ${promptLine(branch.thought)}`,
);

function pathText(ctx: { path: PathSteps }): string {
  let text = pathTexts.get(ctx.path);
  if (text === undefined) {
    const branches: ThoughtBranch[] = [];
    for (const node of ctx.path) if (node.branch) branches.push(node.branch);
    text = branches.length ? numberedThoughts.join(branches) : '(none yet: this is the first step)';
    pathTexts.set(ctx.path, text);
  }
  return text;
}

/**
 * The explored thoughts as "- thought" lines. Successive generations see the same window of the most recent thoughts
 * shifted by the few completed since, so the lines of the last call are reused where its thoughts recur (compared by
 * value: any run, any order, the text is the same as rendering every line).
 */
let lastExplored: { thoughts: readonly string[]; lines: string[] } = { thoughts: [], lines: [] };

function exploredLines(thoughts: readonly string[]): string {
  const previous = lastExplored;
  // the shift that lines the previous window up with this one's start, if they overlap
  let shift = previous.thoughts.indexOf(thoughts[0] as string);
  for (let i = 0; shift !== -1 && i < previous.thoughts.length - shift && i < thoughts.length; i++) {
    if (previous.thoughts[shift + i] !== thoughts[i]) shift = -1;
  }
  const lines = thoughts.map((thought, i) =>
    shift !== -1 && shift + i < previous.thoughts.length
      ? (previous.lines[shift + i] as string)
      : `- ${promptLine(thought)}`,
  );
  lastExplored = { thoughts, lines };
  return lines.join('\n');
}

export function parseAction(raw: unknown, fallbackText: string): ProposedAction {
  if (raw && typeof raw === 'object') {
    const a = raw as Record<string, unknown>;
    const type = typeof a.type === 'string' ? a.type.toLowerCase().replace('-', '_') : '';
    if (type === 'tool_call' && typeof a.toolName === 'string') {
      const args = a.arguments && typeof a.arguments === 'object' ? (a.arguments as Record<string, unknown>) : {};
      return { type: 'tool_call', toolName: a.toolName, arguments: args };
    }
    if (type === 'sub_goal' && typeof a.goal === 'string') return { type: 'sub_goal', goal: a.goal };
    if (type === 'response' && typeof a.content === 'string') return { type: 'response', content: a.content };
  }
  return { type: 'sub_goal', goal: fallbackText };
}

export function parseBranchList(text: string, count: number): ThoughtBranch[] | null {
  const json = extractJson(text);
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { branches?: unknown }).branches)
      ? (json as { branches: unknown[] }).branches
      : null;
  if (!list) return null;
  if (list.length === 0) return []; // a valid answer: nothing worth trying from here
  const branches: ThoughtBranch[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const thought = (item as { thought?: unknown }).thought;
    if (typeof thought !== 'string' || !thought.trim()) continue;
    const action =
      (item as { action?: unknown; proposedAction?: unknown }).action ??
      (item as { proposedAction?: unknown }).proposedAction;
    branches.push({ thought: thought.trim(), proposedAction: parseAction(action, thought.trim()) });
  }
  // items were given but none was usable: that is an unparseable answer, not an empty one
  return branches.length ? branches.slice(0, count) : null;
}

export function parseScoreJson(text: string): ScoreParts | null {
  const json = extractJson(text);
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const parts: ScoreParts = {};
  for (const key of ['confidence', 'progress', 'novelty'] as const) {
    const value = typeof o[key] === 'string' ? Number(o[key]) : o[key];
    if (typeof value === 'number' && Number.isFinite(value)) parts[key] = value;
  }
  if (typeof o.reasoning === 'string') parts.reasoning = o.reasoning;
  if (parts.confidence === undefined && parts.progress === undefined && parts.novelty === undefined) return null;
  return parts;
}

/** Generic approaches used when the model's answer cannot be parsed (rule 2 of the docs). */
export function genericFallbackBranches(ctx: GenerationContext): ThoughtBranch[] {
  const goal = ctx.goal;
  const ideas = [
    `Break "${goal}" into smaller sub-problems and solve the first one`,
    `Answer "${goal}" directly with the most straightforward approach`,
    `List the constraints and assumptions of "${goal}" and check each`,
    `Work backwards from what a good answer to "${goal}" looks like`,
  ];
  return ideas.slice(0, ctx.count).map((thought) => ({ thought, proposedAction: { type: 'sub_goal', goal: thought } }));
}

function executionPrompt(ctx: ExecutionContext): ChatMessage[] {
  const branch = ctx.node.branch;
  return [
    system(ctx.instructions, 'You carry out one approach to a goal and report the result.'),
    {
      role: 'user',
      content: [
        `Goal: ${ctx.goal}`,
        `Steps so far:\n${pathText({ path: ctx.path.slice(0, -1) })}`,
        `Approach to carry out now: ${promptLine(branch?.thought ?? '')}`,
        `Action: ${branch ? promptLine(describeAction(branch.proposedAction)) : ''}`,
        `Scratchpad (verified steps and abandoned branches):\n${ctx.scratchpad}`,
        `Work on it. When you have the result, start your last paragraph with "${FINAL_MARKER}". If you need another turn, end with "CONTINUE".`,
      ].join('\n\n'),
    },
  ];
}

export const openGoalTask: ThoughtTask = {
  id: 'open-goal',

  buildGenerationPrompt(ctx) {
    return [
      system(ctx.instructions, 'You explore several distinct approaches to a problem, one step at a time.'),
      {
        role: 'user',
        content: [
          `Goal: ${ctx.goal}`,
          `Steps so far:\n${pathText(ctx)}`,
          `Scratchpad (verified steps in full, abandoned branches summarised; do not repeat them):\n${ctx.scratchpad}`,
          ctx.exploredThoughts.length
            ? `Thoughts already explored (propose something different):\n${exploredLines(ctx.exploredThoughts)}`
            : '',
          `Propose exactly ${ctx.count} different next steps. Answer with a JSON array only, each item:`,
          '{"thought": "...", "action": {"type": "response", "content": "..."} | {"type": "sub_goal", "goal": "..."} | {"type": "tool_call", "toolName": "...", "arguments": {}}}',
        ]
          .filter(Boolean)
          .join('\n\n'),
      },
    ];
  },

  parseBranches: (text, ctx) => parseBranchList(text, ctx.count),
  fallbackBranches: genericFallbackBranches,

  buildEvaluationPrompt(ctx) {
    return [
      system(ctx.instructions, 'You judge candidate approaches to a problem strictly and briefly.'),
      {
        role: 'user',
        content: [
          `Goal: ${ctx.goal}`,
          `Steps so far:\n${pathText(ctx)}`,
          `Candidate: ${promptLine(ctx.branch.thought)}`,
          `Its action: ${promptLine(describeAction(ctx.branch.proposedAction))}`,
          `Other candidates: ${
            ctx.siblings
              .filter((s) => s !== ctx.branch)
              .map((s) => promptLine(s.thought))
              .join(' | ') || '(none)'
          }`,
          'Score it from 0 to 1 on confidence (will it work?), progress (how much closer to the goal?) and novelty (how different from the other candidates?).',
          'Answer with JSON only: {"confidence": 0.0, "progress": 0.0, "novelty": 0.0, "reasoning": "..."}',
        ].join('\n\n'),
      },
    ];
  },

  parseScore: (text) => parseScoreJson(text),
  buildExecutionPrompt: executionPrompt,
  isExecutionDone: (text) => !/\bCONTINUE\s*$/.test(text.trim()),

  buildSynthesisPrompt(ctx) {
    return [
      system(ctx.instructions, 'You write the final answer from a chain of reasoning steps.'),
      {
        role: 'user',
        content: [
          `Goal: ${ctx.goal}`,
          `Reasoning path:\n${ctx.path
            .filter((n) => n.branch)
            .map(
              (n, i) =>
                `${i + 1}. ${promptLine(n.branch?.thought ?? '')}${n.result ? `\n   Result: ${promptLine(n.result.response)}` : ''}`,
            )
            .join('\n')}`,
          'Write the final answer to the goal, using the path above.',
        ].join('\n\n'),
      },
    ];
  },

  validateGoal: openGoalError,
};
