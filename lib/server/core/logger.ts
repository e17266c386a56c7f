/**
 * The server's one logger: a line per message, as JSON (`{ts, level, instance, runId?, msg, ...fields}`, what a log
 * collector of a cluster reads) or as text (`[arborist] msg`, what a person reads on one machine). The run manager,
 * the cluster and the services log through it, with the run id when there is one, so an operator can follow one run
 * across instances with a single filter.
 * Not responsible for choosing the format (env.ts ARBORIST_LOG_FORMAT, services.ts) nor for shipping the lines
 * anywhere (stdout and stderr; the platform collects them).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'text';

/** What a line may carry besides its message: the run it is about, and any plain fields. */
export interface LogFields {
  runId?: string;
  [field: string]: unknown;
}

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** The same logger with fields added to every line (e.g. a run id). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  format: LogFormat;
  /** The instance's name, on every JSON line. */
  instance: string;
  /** Where a finished line goes (default: stdout, stderr for warnings and errors). */
  write?: (line: string, level: LogLevel) => void;
  /** The least level written (default 'info': the job queue's chatter at debug stays out). */
  level?: LogLevel;
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function defaultWrite(line: string, level: LogLevel): void {
  if (level === 'warn' || level === 'error') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** An Error becomes its message and stack (JSON.stringify would give `{}`). */
function plain(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** One log line in the chosen format (pure: the tests read it). */
export function formatLogLine(
  format: LogFormat,
  level: LogLevel,
  instance: string,
  msg: string,
  fields: LogFields,
  now: Date = new Date(),
): string {
  if (format === 'json') {
    const extra = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, plain(value)]));
    return JSON.stringify({ ts: now.toISOString(), level, instance, ...extra, msg });
  }
  const { runId, ...rest } = fields;
  const tail = Object.entries(rest)
    .map(([key, value]) => {
      const shown = plain(value);
      return `${key}=${typeof shown === 'string' ? shown : JSON.stringify(shown)}`;
    })
    .join(' ');
  const prefix = level === 'info' || level === 'debug' ? '' : `${level}: `;
  return `[arborist] ${prefix}${runId ? `run ${runId}: ` : ''}${msg}${tail ? ` (${tail})` : ''}`;
}

export function createLogger(options: LoggerOptions, base: LogFields = {}): Logger {
  const write = options.write ?? defaultWrite;
  const least = LEVELS.indexOf(options.level ?? 'info');
  const line =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (LEVELS.indexOf(level) < least) return;
      write(formatLogLine(options.format, level, options.instance, msg, { ...base, ...fields }), level);
    };
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: (fields) => createLogger(options, { ...base, ...fields }),
  };
}

/** A logger that drops everything (tests that do not read logs). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/** A logger from a plain `(message) => void` function, the shape callers passed before this logger existed. */
export function loggerFromFunction(fn: (message: string) => void): Logger {
  const make = (base: LogFields): Logger => {
    const line = (msg: string, fields: LogFields = {}) => {
      const all = { ...base, ...fields };
      fn(formatLogLine('text', 'info', '', msg, all).replace(/^\[arborist\] /, ''));
    };
    return { debug: line, info: line, warn: line, error: line, child: (more) => make({ ...base, ...more }) };
  };
  return make({});
}
