'use client';
/**
 * The run form's goal when the task is "Code change": a picker of the server's benchmark projects (bench.list) that
 * shows the chosen one's change request, and, for admins only (the local person is one), a folder of the server with
 * what to change and its tests. Every change writes the goal text (lib/forms/code-goal.ts); the form checks and sends
 * it like any goal, and its message sits under the picker.
 * Not responsible for who may use a folder (run.create refuses it to anyone else) nor for the projects themselves.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isAdmin } from '@/lib/contract/access';
import { codeGoalChoice, codeGoalText, type CodeGoalChoice } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import { useSession } from '@/components/session/useSession';
import s from './CodeGoalPicker.module.css';

const KIND_LABELS: Record<string, string> = {
  'wrong-type': 'wrong type',
  'failing-test': 'failing test',
  rename: 'rename',
  'api-migration': 'API migration',
  feature: 'feature',
  bug: 'bug',
};

export function CodeGoalPicker({
  goal,
  onGoal,
  error,
  message,
}: {
  goal: string;
  /** The goal text; `typed` is false when only the source changed (its fields start blank, not wrong). */
  onGoal: (goal: string, typed: boolean) => void;
  error: string | undefined;
  /** The goal's message (error or hint), rendered under the picker. */
  message: ReactNode;
}) {
  const trpc = useTRPC();
  const projects = useQuery(trpc.bench.list.queryOptions());
  const { who } = useSession();
  const admin = who !== null && isAdmin(who);
  // the picker's own fields: a folder half typed is no goal yet, so they cannot be read back from the goal text
  const [choice, setChoice] = useState<CodeGoalChoice>(() => codeGoalChoice(goal));
  /** `typed`: the person changed a value (the goal's message may show); false for a switch of source. */
  const update = (next: Partial<CodeGoalChoice>, typed = true) => {
    const merged = { ...choice, ...next };
    setChoice(merged);
    onGoal(codeGoalText(merged), typed);
  };
  const list = projects.data ?? [];
  const chosen = list.find((p) => p.id === choice.benchId) ?? null;
  const folder = admin && choice.source === 'folder';
  const invalid = Boolean(error);

  return (
    <div className={s.picker} data-testid="code-goal">
      {admin && (
        <div className={s.sources} role="radiogroup" aria-label="What to change">
          {(['bench', 'folder'] as const).map((source) => (
            <label key={source} className={s.source}>
              <input
                type="radio"
                name="code-source"
                value={source}
                checked={choice.source === source}
                onChange={() => update({ source }, false)}
                data-testid={`code-source-${source}`}
              />
              {source === 'bench' ? 'Benchmark project' : 'Own folder (admins)'}
            </label>
          ))}
        </div>
      )}
      {folder ? (
        <div className={s.folder}>
          <label className={s.row}>
            <span>Folder</span>
            <input
              id="goal"
              className="input"
              value={choice.folder}
              onChange={(e) => update({ folder: e.target.value })}
              placeholder="/absolute/path/to/project"
              spellCheck={false}
              autoComplete="off"
              aria-invalid={invalid}
              aria-describedby="goal-message"
              data-testid="code-folder"
            />
          </label>
          <label className={s.row}>
            <span>Change</span>
            <input
              className="input"
              value={choice.change}
              onChange={(e) => update({ change: e.target.value })}
              placeholder="what to change, in words"
              aria-invalid={invalid}
              data-testid="code-change"
            />
          </label>
          <label className={s.row}>
            <span>Tests</span>
            <input
              className="input"
              value={choice.tests}
              onChange={(e) => update({ tests: e.target.value })}
              placeholder="**/*.test.ts"
              spellCheck={false}
              data-testid="code-tests"
            />
          </label>
          <p className={s.note}>Copied into the sandbox for each check; the folder itself is never modified.</p>
        </div>
      ) : (
        <>
          <select
            id="goal"
            value={choice.benchId}
            onChange={(e) => update({ benchId: e.target.value })}
            aria-invalid={invalid}
            aria-describedby="goal-message"
            data-testid="code-project"
          >
            <option value="" disabled>
              {projects.isPending ? 'Loading projects…' : list.length ? 'Pick a project' : 'No benchmark projects'}
            </option>
            {/* a goal naming a project this server does not list: shown, so the form says what it will send */}
            {choice.benchId && !chosen && projects.isSuccess && (
              <option value={choice.benchId}>{choice.benchId} (not in this server’s benchmark)</option>
            )}
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title} · {KIND_LABELS[p.kind] ?? p.kind}
              </option>
            ))}
          </select>
          {chosen && (
            <div className={s.request} data-testid="code-request">
              <span className={s.requestHead}>
                <code>bench/{chosen.id}</code> · {chosen.steps} step{chosen.steps === 1 ? '' : 's'} in its reference
                solution
              </span>
              <p>{chosen.request}</p>
            </div>
          )}
          {projects.isError && (
            <span className="field-error">Could not list the projects: {projects.error.message}</span>
          )}
        </>
      )}
      {message}
    </div>
  );
}
