/**
 * The offline model's answers to the engine's open-goal prompts (lib/engine/prompts.ts: openGoalTask).
 * Thoughts come from template banks that name the goal's own words, staged by depth (understand and measure,
 * then try options, then decide), mixing responses, sub-goals and tool calls. Like a real model it is not always
 * tidy: about 5% of JSON answers come wrapped in prose or a ```json fence and about 2% are unusable prose, so
 * the engine's fallbacks show up; some scores are low enough to drop a candidate and, from depth 2, some are
 * confident enough (>= 0.8) to end a search. Deterministic from the rng it is given.
 * Not responsible for the Game of 24 (lib/tasks/game24/simulation.ts) or for parsing (the engine does).
 */
import type { ProposedAction } from '../../contract/vocabulary';
import { type CompletionRequest, FINAL_MARKER, readPromptLine } from '../../engine/index';
import type { Rng, Simulation } from '../../models/index';

export const GARBAGE_RATE = 0.02;
export const WRAPPED_RATE = 0.05;
/** Chance that the first turn of a sub-goal or tool call asks for another turn. */
export const CONTINUE_RATE = 0.3;

type Kind = 'generate' | 'evaluate' | 'execute' | 'synthesize';

/** Phrases of openGoalTask's user messages that tell its four prompts apart. */
const SIGNATURES: [Kind, string][] = [
  ['generate', 'Answer with a JSON array only'],
  ['evaluate', 'Answer with JSON only: {"confidence"'],
  ['execute', `start your last paragraph with "${FINAL_MARKER}"`],
  ['synthesize', 'Write the final answer to the goal, using the path above.'],
];

function readPrompt(request: CompletionRequest): { kind: Kind; text: string } | null {
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    const found = SIGNATURES.find(([, phrase]) => message.content.includes(phrase));
    if (found) return { kind: found[0], text: message.content };
  }
  return null;
}

/** A labelled line's text ("Candidate: ..."); model text is read back as the model wrote it (the prompt escapes it). */
function field(text: string, label: string): string {
  const line = text.split(/\r?\n/).find((l) => l.startsWith(`${label}:`));
  const value = line ? line.slice(label.length + 1).trim() : '';
  // the goal is the person's own words, written into the prompt as they are
  return label === 'Goal' ? value : readPromptLine(value);
}

/** The numbered lines of a section ("Steps so far:", "Reasoning path:"), up to the next blank line. */
function numberedSection(text: string, heading: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.trim()) break;
    const m = /^\d+\.\s+(.*)$/.exec(line);
    if (m) out.push(readPromptLine(m[1] ?? ''));
  }
  return out;
}

const LEADING_VERBS =
  /^(?:please\s+)?(?:how\s+(?:do|can|should|could)\s+(?:i|we)\s+)?(?:speed\s+up|improve|optimi[sz]e|design|build|create|write|fix|make|reduce|find|plan|choose|decide\s+on|explain|migrate|refactor|add|implement|set\s+up|debug|cut|lower|increase|organi[sz]e|prepare)\s+/i;

/** The goal as a noun phrase for templates: "Speed up the nightly report job" -> "the nightly report job". */
export function topicOf(goal: string): string {
  const stripped = goal
    .trim()
    .replace(/[.?!]+$/, '')
    .replace(LEADING_VERBS, '');
  const words = stripped.split(/\s+/).filter(Boolean);
  const phrase = words.length > 9 ? `${words.slice(0, 9).join(' ')}…` : words.join(' ');
  if (!phrase) return 'the goal';
  return /^[A-Z][a-z]/.test(phrase) ? phrase[0]?.toLowerCase() + phrase.slice(1) : phrase;
}

const STOPWORDS = new Set(
  'the a an of for to and or in on with our your my their this that from into how what why when which should could would can will be is are was were make find'.split(
    ' ',
  ),
);

/** The goal's most telling words, for tool arguments: the longest ones that are not stopwords. */
export function keywordsOf(goal: string): string[] {
  const words = goal
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2 && !STOPWORDS.has(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length).slice(0, 3);
}

interface Idea {
  thought: string;
  action: ProposedAction;
}

type Template = (topic: string, keywords: string[]) => Idea;

const sub = (thought: string, goal = thought): Idea => ({ thought, action: { type: 'sub_goal', goal } });
const say = (thought: string, content: string): Idea => ({ thought, action: { type: 'response', content } });
const call = (thought: string, toolName: string, args: Record<string, unknown>): Idea => ({
  thought,
  action: { type: 'tool_call', toolName, arguments: args },
});

/** Stage 0: understand and measure. */
const EARLY: Template[] = [
  (t) => sub(`Profile the slowest parts of ${t} first`, `Find where the time goes in ${t}`),
  (t) =>
    sub(
      `List the hard constraints of ${t} before choosing an approach`,
      `List budget, deadline and compatibility constraints of ${t}`,
    ),
  (t, k) => call(`Search the docs for known approaches to ${t}`, 'search_docs', { query: k.join(' ') }),
  (t, k) =>
    call(`Measure the current baseline of ${t} so later changes can be compared`, 'run_benchmark', {
      target: k[0] ?? t,
      runs: 5,
    }),
  (t, k) => call(`Find where ${k[0] ?? 'it'} is handled in the codebase`, 'grep_codebase', { pattern: k[0] ?? t }),
  (t) =>
    say(
      `Answer directly: state the most likely fix for ${t} from experience`,
      `The most common cause in cases like ${t} is doing too much work up front; start by removing it.`,
    ),
];

/** Stage 1: try options. */
const MIDDLE: Template[] = [
  (t) => sub(`Try the cheapest change for ${t} first and measure its effect`),
  (t) => sub(`Split ${t} into independent parts and tackle the biggest one`),
  (t, k) =>
    call(`Benchmark the two leading options for ${t} side by side`, 'run_benchmark', {
      target: k[0] ?? t,
      variants: ['current', 'proposed'],
    }),
  (t, k) =>
    call(`Look for reports from people who hit the same problem with ${k[0] ?? t}`, 'search_docs', {
      query: `${k.join(' ')} known issues`,
    }),
  (t) =>
    say(
      `Draft a step-by-step plan for ${t} from what is known so far`,
      `Plan for ${t}: 1) measure, 2) change one thing, 3) measure again, 4) keep or roll back.`,
    ),
  (t) => sub(`Check the risks of the leading option for ${t} (rollback, cost, side effects)`),
];

/** Stage 2 and deeper: decide. */
const LATE: Template[] = [
  (t) =>
    say(
      `Recommend one approach for ${t}, with the evidence from the steps so far`,
      `Recommendation for ${t}: apply the change that measured best, behind a flag, and keep the baseline benchmark as a guard.`,
    ),
  (t) =>
    say(
      `Write the final plan for ${t}: the change, how to verify it, and how to roll back`,
      `Final plan for ${t}: make the change, verify it against the baseline, and keep the previous version ready to restore.`,
    ),
  (t) => sub(`Verify the chosen approach for ${t} on a realistic case before committing`),
  (t, k) =>
    call(`Re-run the baseline benchmark with the chosen change for ${t}`, 'run_benchmark', {
      target: k[0] ?? t,
      runs: 10,
      compare: 'baseline',
    }),
  (t) =>
    say(
      `Summarise the trade-offs found for ${t} and pick the safest option`,
      `For ${t}, the safest option is the smallest change that met the target; the others cost more for little gain.`,
    ),
];

const STAGES = [EARLY, MIDDLE, LATE] as const;

/** `count` distinct ideas for a node at `depth`, avoiding thoughts already explored. */
export function ideasFor(goal: string, depth: number, count: number, explored: readonly string[], rng: Rng): Idea[] {
  const topic = topicOf(goal);
  const keywords = keywordsOf(goal);
  const stage = Math.min(depth, STAGES.length - 1);
  // Mostly the current stage, with a neighbour stage mixed in for variety.
  const neighbour = STAGES[stage === 0 ? 1 : stage - 1] ?? MIDDLE;
  const pool = [...rng.shuffle(STAGES[stage] ?? LATE), ...rng.shuffle(neighbour)].map((make) => make(topic, keywords));
  const fresh = pool.filter((idea) => !explored.includes(idea.thought));
  const chosen = (fresh.length >= count ? fresh : [...fresh, ...pool]).slice(0, count);
  // Past the bank's size, repeat with a visible difference rather than returning fewer.
  while (chosen.length < count) {
    const base = pool[chosen.length % pool.length] as Idea;
    chosen.push({ ...base, thought: `${base.thought} (another angle ${chosen.length + 1})` });
  }
  return chosen;
}

const GARBAGE = [
  'I think the best way forward is to look at the problem from several angles and pick the most promising one.',
  'There are many possible approaches here; it depends on the details of the setup.',
  'Let me think about this step by step. First, we need to understand the problem better.',
];

/** Valid JSON most of the time; sometimes wrapped in prose or a fence; rarely unusable prose. */
function dress(json: string, rng: Rng, preface: string): string {
  const r = rng.next();
  if (r < GARBAGE_RATE) return rng.pick(GARBAGE);
  if (r < GARBAGE_RATE + WRAPPED_RATE / 2) return `${preface}\n\n${json}\n\nI can go deeper on any of these.`;
  if (r < GARBAGE_RATE + WRAPPED_RATE) return `\`\`\`json\n${json}\n\`\`\``;
  return json;
}

function respondGenerate(text: string, rng: Rng): string {
  const goal = field(text, 'Goal');
  const count = Number(/Propose exactly (\d+)/.exec(text)?.[1] ?? 3);
  const depth = numberedSection(text, 'Steps so far:').length;
  const explored = text.includes('Thoughts already explored')
    ? text
        .slice(text.indexOf('Thoughts already explored'))
        .split(/\r?\n/)
        .filter((l) => l.startsWith('- '))
        .map((l) => readPromptLine(l.slice(2)))
    : [];
  const ideas = ideasFor(goal, depth, count, explored, rng);
  const json = JSON.stringify(
    ideas.map((i) => ({ thought: i.thought, action: i.action })),
    null,
    2,
  );
  return dress(json, rng, `Here are ${count} approaches I would consider:`);
}

const round = (x: number) => Math.round(x * 100) / 100;

function respondEvaluate(text: string, rng: Rng): string {
  const candidate = field(text, 'Candidate');
  const action = field(text, 'Its action');
  const depth = numberedSection(text, 'Steps so far:').length + 1;
  const r = rng.next();
  // A decisive answer late in the search is what a confident model ends on.
  const highChance = depth >= 2 ? (action.startsWith('respond:') ? 0.4 : 0.15) : 0;
  let confidence: number;
  let reasoning: string;
  if (r < 0.12) {
    confidence = 0.08 + 0.2 * rng.next();
    reasoning = `"${candidate}" is too vague to move the goal forward.`;
  } else if (r < 0.12 + highChance) {
    confidence = 0.8 + 0.15 * rng.next();
    reasoning = `"${candidate}" builds on the steps so far and settles the question.`;
  } else {
    confidence = 0.35 + 0.43 * rng.next();
    reasoning = `"${candidate}" is concrete and testable, though its outcome is uncertain.`;
  }
  const scores = {
    confidence: round(confidence),
    progress: round(Math.min(1, 0.15 + 0.22 * depth + 0.1 * rng.next())),
    novelty: round(0.3 + 0.6 * rng.next()),
    reasoning,
  };
  return dress(JSON.stringify(scores), rng, 'My assessment:');
}

function toolFinding(tool: string, rng: Rng, topic: string): string {
  switch (tool) {
    case 'run_benchmark': {
      const ms = 120 + rng.int(900);
      return `the benchmark ran 5 times: median ${ms} ms, p95 ${Math.round(ms * (1.3 + rng.next()))} ms`;
    }
    case 'grep_codebase':
      return `${2 + rng.int(12)} matches in ${1 + rng.int(4)} files, most of them in one module`;
    default:
      return `${2 + rng.int(4)} relevant pages on ${topic}; the most useful recommends measuring before changing anything`;
  }
}

function respondExecute(request: CompletionRequest, text: string, rng: Rng): string {
  const approach = field(text, 'Approach to carry out now');
  const action = field(text, 'Action');
  const topic = topicOf(field(text, 'Goal'));
  const firstTurn = !request.messages.some((m) => m.role === 'assistant');
  if (action.startsWith('respond:')) return `${FINAL_MARKER} ${action.slice('respond:'.length).trim()}`;
  const tool = /^call (\w+)\(/.exec(action)?.[1];
  if (firstTurn && rng.next() < CONTINUE_RATE) {
    return tool
      ? `Called ${tool}; the first results are in but incomplete. I need one more turn to read them.\nCONTINUE`
      : `Started on "${approach}": the first part is done, the rest needs another turn.\nCONTINUE`;
  }
  const finding = tool
    ? toolFinding(tool, rng, topic)
    : `working through "${approach}" shows one clear bottleneck in ${topic}`;
  return [
    `I carried out "${approach}". ${tool ? `Using ${tool}: ` : 'In short: '}${finding}.`,
    `${FINAL_MARKER} ${finding[0]?.toUpperCase() ?? ''}${finding.slice(1)}; this points to the next step for ${topic}.`,
  ].join('\n\n');
}

function respondSynthesize(text: string): string {
  const goal = field(text, 'Goal');
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith('Reasoning path:'));
  const steps: { thought: string; result?: string }[] = [];
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    if (!line.trim()) break;
    const step = /^\d+\.\s+(.*)$/.exec(line);
    const result = /^\s+Result:\s*(.*)$/.exec(line);
    if (step) steps.push({ thought: readPromptLine(step[1] ?? '') });
    else if (result && steps.length) {
      (steps[steps.length - 1] as { result?: string }).result = readPromptLine(result[1] ?? '');
    }
  }
  if (!steps.length) return `Final answer for "${goal}": no steps were taken, so start by measuring ${topicOf(goal)}.`;
  const clean = (r: string | undefined) => r?.replace(FINAL_MARKER, '').trim();
  // A direct response's result is its own text: cite it once.
  const cited = steps.map((s, i) => {
    const result = clean(s.result);
    return `${i + 1}. ${s.thought}${result && result !== s.thought ? ` — ${result}` : ''}`;
  });
  const last = steps[steps.length - 1] as { thought: string; result?: string };
  return [
    `Final answer for "${goal}", following ${steps.length} step${steps.length > 1 ? 's' : ''}:`,
    ...cited,
    `Conclusion: ${(clean(last.result) || last.thought).replace(/\.$/, '')}.`,
  ].join('\n');
}

export const openGoalSimulation: Simulation = {
  taskId: 'open-goal',
  recognizes: (request) => readPrompt(request) !== null,
  respond(request, rng) {
    const prompt = readPrompt(request);
    if (!prompt) throw new Error('the open-goal simulation was given a prompt it does not recognise');
    switch (prompt.kind) {
      case 'generate':
        return respondGenerate(prompt.text, rng);
      case 'evaluate':
        return respondEvaluate(prompt.text, rng);
      case 'execute':
        return respondExecute(request, prompt.text, rng);
      case 'synthesize':
        return respondSynthesize(prompt.text);
    }
  },
};
