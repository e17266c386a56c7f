/**
 * The sandbox's front door: verifies a project's files (type-check in a worker, tests in a limited child process).
 * STUB on main: the sandbox helper builds it.
 * Not responsible for applying diffs (../diff.ts) or judging what a report means for a node (../task.ts).
 */
import type { SandboxReport, SandboxRequest } from '../types';

/** Verifies `request.files` in a fresh temporary folder; the signal kills the work under way. */
export async function verifyInSandbox(request: SandboxRequest, signal?: AbortSignal): Promise<SandboxReport> {
  void request;
  void signal;
  throw new Error('verifyInSandbox: not built yet');
}

/** The report as a verification trace: the compiler's diagnostics and the test output, trimmed. */
export function traceOf(report: SandboxReport): string {
  void report;
  throw new Error('traceOf: not built yet');
}
