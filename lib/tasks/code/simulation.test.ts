/**
 * The offline code model: it reads where the project stands from the prompt's files, proposes the benchmark's
 * reference step and its wrong changes in the task's own format (right first in some draws, wrong first in others),
 * the same for the same seed, leaves out what the scratchpad lists as pruned, and refuses a local folder in words
 * the parser rejects.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../models/index';
import { loadBenchProject } from './bench';
import { applyDiffs } from './diff';
import { parseProposals, proposePrompt } from './prompts';
import { codeSimulation, drawCandidates, filesInPrompt, NO_PROPOSAL, stepsApplied } from './simulation';
import type { BenchProject } from './types';

function bench(id: string): BenchProject {
  const project = loadBenchProject(id);
  if (!project) throw new Error(`the benchmark has no ${id}`);
  return project;
}

const SCRATCHPAD = '<thinking_scratchpad>\n</thinking_scratchpad>';

function ask(project: BenchProject, files = project.files, scratchpad = SCRATCHPAD, seed = 1): string {
  const messages = proposePrompt({
    title: `bench/${project.id}`,
    request: project.request,
    files,
    scratchpad,
    count: 3,
  });
  const request = { purpose: 'generate' as const, messages };
  expect(codeSimulation.recognizes(request)).toBe(true);
  return codeSimulation.respond(request, createRng(seed));
}

describe('codeSimulation', () => {
  const project = bench('clamp-range');
  const step = project.steps[0];
  if (!step) throw new Error('clamp-range has no step');
  const known = [step.hypothesis, ...step.wrong.map((w) => w.hypothesis)];

  it("reads the project's files back from the prompt exactly, escaped characters included", () => {
    const files = { 'src/a.ts': 'const x: Array<string> = [];\nif (a && b) "q";\n', 'b "c".ts': "it's\n\n" };
    const [, user] = proposePrompt({ title: 't', request: 'r', files, scratchpad: SCRATCHPAD, count: 1 });
    expect(filesInPrompt(user?.content ?? '')).toEqual(files);
  });

  it('knows how many reference steps the files have applied, and when they are no state of it', () => {
    expect(stepsApplied(project, project.files)).toBe(0);
    const after = applyDiffs(project.files, [step.diff]);
    if (!after.ok) throw new Error(after.reason);
    expect(stepsApplied(project, after.files)).toBe(1);
    expect(stepsApplied(project, { ...project.files, 'extra.ts': '' })).toBeNull();
  });

  it("proposes the step's reference and wrong changes in a format the task parses, the same for the same seed", () => {
    const answer = ask(project);
    expect(ask(project)).toBe(answer);
    const branches = parseProposals(answer, 3);
    expect(branches).toHaveLength(3);
    for (const branch of branches ?? []) expect(known).toContain(branch.thought);
  });

  it('puts the reference first in some draws and a wrong change first in others', () => {
    const firsts = Array.from({ length: 40 }, (_, seed) => drawCandidates(step, 3, createRng(seed), [])[0]?.hypothesis);
    expect(firsts).toContain(step.hypothesis);
    expect(firsts.some((h) => h !== step.hypothesis)).toBe(true);
  });

  it('does not offer again a change the scratchpad lists as pruned', () => {
    const wrong = step.wrong[0];
    if (!wrong) throw new Error('clamp-range has no wrong change');
    const pruned = `<thinking_scratchpad>\n  <pruned_branch id="n2" depth="1">${wrong.hypothesis.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')} (FAIL: 1 test that passed before now fails)</pruned_branch>\n</thinking_scratchpad>`;
    for (let seed = 0; seed < 10; seed++) {
      const thoughts = parseProposals(ask(project, project.files, pruned, seed), 3)?.map((b) => b.thought);
      expect(thoughts).not.toContain(wrong.hypothesis);
    }
  });

  it('refuses a local folder in words the parser rejects', () => {
    const messages = proposePrompt({
      title: '/home/me/project',
      request: 'rename a',
      files: { 'a.ts': '' },
      scratchpad: SCRATCHPAD,
      count: 3,
    });
    const answer = codeSimulation.respond({ purpose: 'generate', messages }, createRng(1));
    expect(answer.startsWith(NO_PROPOSAL)).toBe(true);
    expect(parseProposals(answer, 3)).toBeNull();
  });
});
