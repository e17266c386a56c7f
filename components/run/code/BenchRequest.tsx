'use client';
// Under a code run's goal: what the named benchmark project asks for (its title and request, from bench.list), since
// the goal itself is only "project: bench/<id>" (the header names the run by the project's title the same way).
// Nothing for other runs, a folder or a goal that states its change.
// Not responsible for the goal's grammar (lib/contract/code.ts) or the benchmark itself (lib/tasks/code/bench.ts).
import { useQuery } from '@tanstack/react-query';
import { parseCodeGoal } from '@/lib/contract/code';
import { useTRPC } from '@/lib/trpc/index';
import styles from '../inspector/Inspector.module.css';

/** The bench project's id when the goal names one and keeps its own request, else null. */
function benchIdOf(taskId: string, goal: string): string | null {
  if (taskId !== 'code') return null;
  const parsed = parseCodeGoal(goal);
  return parsed.ok && parsed.goal.project.kind === 'bench' && parsed.goal.change === null
    ? parsed.goal.project.id
    : null;
}

/** The benchmark project a code run's goal names (title, request), once bench.list has answered; else undefined. */
export function useBenchProject(taskId: string, goal: string) {
  const trpc = useTRPC();
  const id = benchIdOf(taskId, goal);
  const projects = useQuery({ ...trpc.bench.list.queryOptions(), enabled: id !== null, staleTime: Infinity });
  return id === null ? undefined : projects.data?.find((p) => p.id === id);
}

export function BenchRequest({ taskId, goal }: { taskId: string; goal: string }) {
  const project = useBenchProject(taskId, goal);
  if (!project) return null;
  return (
    <p className={styles.prose} data-testid="inspector-bench-request">
      <b>{project.title}.</b> {project.request}
    </p>
  );
}
