/**
 * The bundled benchmark projects (bench/<id>/). STUB on main: the benchmark helper builds it.
 * Not responsible for verifying them (sandbox/) or searching them (task.ts).
 */
import type { BenchProject, BenchProjectInfo } from './types';

/** Every benchmark project, in a stable order, for the run form and the figures script. */
export function benchProjects(): BenchProjectInfo[] {
  return [];
}

/** The project with this id, or null. */
export function loadBenchProject(id: string): BenchProject | null {
  void id;
  return null;
}
