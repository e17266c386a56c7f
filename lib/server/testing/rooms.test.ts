/**
 * lib/server's rooms and the one way their arrows run (lib/server/README.md): read from the sources on disk, every
 * import of a production file (tests and test support excluded) goes to its own room or to a room below it in ROOMS,
 * never up, never to a peer of the same rank, and no folder imports itself in a circle. Also: the root holds at most
 * six files, every room has a README, and only the log room writes the log's rows (the SQL that inserts events or
 * nodes or sets a run's row, and the append/commit functions).
 * Not responsible for the doors of lib/ (eslint.config.mjs holds those).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = join(import.meta.dirname, '..');

/** Top to bottom: a module imports only its own room or rooms of a later rank. Peers share a rank. */
const ROOMS: readonly (readonly string[])[] = [
  ['index.ts', 'bench.ts', 'start.ts'], // the doors and `npm start`
  ['http', 'trpc'], // the API's faces
  ['services.ts'], // the wiring: one set of services per process
  ['experiments', 'otel'], // above the producers they feed: experiments (every cell an engine run), traces (every trace an external run)
  ['runs', 'ingest', 'imports'], // the producers of runs (engine runs, external runs, imports): none knows another
  ['cluster', 'auth'],
  ['streaming'], // following a run's log
  ['run-log'], // the one writer of a run's log, and its reads
  ['repositories'], // the other tables' SQL
  ['db'],
  ['core'], // environment, logger, domain errors
];

function roomOf(file: string): string {
  const rel = relative(SERVER, file);
  return rel.includes('/') ? rel.split('/')[0]! : rel;
}

function rankOf(room: string): number {
  const rank = ROOMS.findIndex((rooms) => rooms.includes(room));
  if (rank < 0) throw new Error(`lib/server/${room} is in no rank of ROOMS: place it (rooms.test.ts)`);
  return rank;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|mjs)$/.test(name) ? [full] : [];
  });
}

const isProduction = (file: string) => !file.endsWith('.test.ts') && roomOf(file) !== 'testing';
const files = sources(SERVER).filter(isProduction);

/** The lib/server files a source imports (relative specifiers, type-only imports included: they are arrows too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => normalize(join(dirname(file), spec))).filter((target) => target.startsWith(SERVER + '/'));
}

describe("lib/server's rooms", () => {
  it('every import runs down the rooms, never up and never to a peer', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = roomOf(file);
      for (const target of importsOf(file)) {
        const to = roomOf(target.endsWith('.ts') || target.endsWith('.mjs') ? target : `${target}.ts`);
        if (to === from) continue;
        if (rankOf(to) <= rankOf(from)) wrong.push(`${relative(SERVER, file)} -> ${relative(SERVER, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the log room is entered by its door: its row writes are not exported', () => {
    const inside = files.filter((file) => roomOf(file) !== 'run-log' && roomOf(file) !== 'bench.ts');
    const through = inside.flatMap((file) =>
      importsOf(file)
        .filter((target) => roomOf(`${target}.ts`) === 'run-log' && !target.endsWith('/run-log/index'))
        .map((target) => `${relative(SERVER, file)} -> ${relative(SERVER, target)}`),
    );
    expect(through).toEqual([]);
  });

  it('no folder imports itself in a circle', () => {
    // a folder is a node; each file at the root is one of its own (the doors and the wiring stand at different ranks)
    const nodeOf = (file: string) => (dirname(file) === SERVER ? file : dirname(file));
    const edges = new Map<string, Set<string>>();
    for (const file of files) {
      const from = nodeOf(file);
      for (const target of importsOf(file)) {
        const to = nodeOf(target.endsWith('.ts') || target.endsWith('.mjs') ? target : `${target}.ts`);
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const circles: string[] = [];
    const visit = (node: string, path: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (next === path[0]) circles.push([...path, next].map((d) => relative(SERVER, d) || '.').join(' -> '));
        else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next]);
      }
    };
    for (const start of edges.keys()) visit(start, [start]);
    expect(circles).toEqual([]);
  });

  it('the root holds at most six files and every room has a README', () => {
    const entries = readdirSync(SERVER, { withFileTypes: true });
    expect(entries.filter((e) => e.isFile()).length).toBeLessThanOrEqual(6);
    const missing = entries.filter((e) => e.isDirectory() && !readdirSync(join(SERVER, e.name)).includes('README.md'));
    expect(missing.map((e) => e.name)).toEqual([]);
  });

  it("only the benchmarks enter by lib/server/bench, the write path's internals", () => {
    const LIB = join(SERVER, '..');
    const entering = ['app', 'components', 'e2e', 'lib']
      .flatMap((top) => sources(join(LIB, '..', top)))
      .filter((file) => !file.startsWith(join(LIB, 'bench') + '/') && !file.startsWith(SERVER + '/'))
      .filter((file) => /['/]server\/bench'/.test(readFileSync(file, 'utf8')));
    expect(entering.map((file) => relative(join(LIB, '..'), file))).toEqual([]);
  });

  it("only the log room writes a run's event, node and summary rows", () => {
    const WRITES =
      /INSERT INTO "?(Event|Node)"?|UPDATE "?Run"? SET|\.(event|node)\.(create|createMany|upsert)\(|\bappendEvents(InTransaction)?\(|\bupsertNodes\(|\bwriteRunPatch\(/;
    const writers = files.filter((file) => WRITES.test(readFileSync(file, 'utf8'))).map((f) => relative(SERVER, f));
    expect(writers.filter((file) => roomOf(join(SERVER, file)) !== 'run-log')).toEqual([]);
    expect(writers.length).toBeGreaterThan(0);
  });
});
