// The logger's lines: JSON a collector can read (instance, level, run id, fields, an error's message) or text a person
// reads.
import { describe, expect, it } from 'vitest';
import { createLogger, formatLogLine } from './logger';

describe('log lines', () => {
  it('as JSON: one object with ts, level, instance, run id, the fields and msg; an error keeps its message', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'json', instance: 'web-1', write: (line) => lines.push(line) });
    log.child({ runId: 'r1' }).warn('lease lost', { error: new Error('gone'), attempt: 2 });
    const parsed = JSON.parse(lines[0]!);
    expect(parsed).toMatchObject({ level: 'warn', instance: 'web-1', runId: 'r1', msg: 'lease lost', attempt: 2 });
    expect(parsed.error.message).toBe('gone');
    expect(new Date(parsed.ts).getTime()).not.toBeNaN();
  });

  it('leaves out lines under the least level (info by default)', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'text', instance: 'web-1', write: (line) => lines.push(line) });
    log.debug('job queue chatter');
    log.info('run claimed');
    expect(lines).toEqual(['[arborist] run claimed']);
  });

  it('as text: the run and the fields after the message', () => {
    const line = formatLogLine('text', 'error', 'web-1', 'run failed', { runId: 'r1', attempt: 2 });
    expect(line).toBe('[arborist] error: run r1: run failed (attempt=2)');
  });
});
