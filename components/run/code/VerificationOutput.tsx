'use client';
// A code change's verification as a mono block: the verdict (passed, type error, tests failed, does not apply) over
// the checker's own words, compiler diagnostics and failing tests in the failure colour, passing tests in the pass
// colour, so a person reads why a branch was pruned without scanning. Text stays text.
// Not responsible for verifying (lib/tasks/code, on the server) nor for the verdict's words (lib/layout/code-change.ts).
import type { Verification } from '@/lib/contract/vocabulary';
import { CODE_VERDICT_LABELS, codeVerdict, traceLines, type TraceTone } from '@/lib/layout/index';
import styles from './VerificationOutput.module.css';

const TONE_CLASS: Record<TraceTone, string | undefined> = {
  diagnostic: styles.toneDiagnostic,
  fail: styles.toneFail,
  pass: styles.tonePass,
  plain: styles.tonePlain,
};

export function VerificationOutput({ verification }: { verification: Verification }) {
  const verdict = codeVerdict(verification);
  const first = verification.trace.split('\n').find((line) => line.trim()) ?? '';
  const lines = traceLines(verification.trace);
  return (
    <div
      className={verification.passed ? styles.pass : styles.fail}
      data-testid="verification-output"
      data-passed={verification.passed}
      data-verdict={verdict}
    >
      <div className={styles.head}>
        <span className={styles.mark}>
          {verification.passed ? '✓' : '✗'} {CODE_VERDICT_LABELS[verdict]}
        </span>
        <span className={styles.first}>{first}</span>
      </div>
      {lines.some((line) => line.text.trim()) && (
        <pre className={styles.lines}>
          {lines.map((line, i) => (
            <span key={i} className={TONE_CLASS[line.tone]}>
              {line.text}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}
