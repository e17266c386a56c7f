/**
 * No import cycle between files of lib/: reads every TypeScript file's static imports and re-exports (`import`,
 * `import type`, `export ... from`, a bare `import './x'`), resolves the relative and `@/` ones to files, and fails
 * naming each cycle it finds (Tarjan's strongly connected components). A cycle makes a module's value depend on
 * evaluation order (an import read as undefined while the other file is still loading), and type-only cycles are
 * counted too: they tie two files together just the same, and turn into value cycles at the next edit.
 * Not covered: lib/generated (Prisma's, not ours) and lib/tasks/code/bench (the code benchmark's sample projects:
 * data, some of it wrong on purpose). lib/server's rooms have a stricter check of their own on top of this one
 * (lib/server/testing/rooms.test.ts: arrows run down the rooms only, no folder circle). Dynamic `import()` is not an edge: it loads after both files have run.
 * Not responsible for which room may import which (eslint.config.mjs holds the arrows between rooms).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXCLUDED = ['lib/generated', 'lib/tasks/code/bench'];
const SOURCE = /\.(ts|tsx|mts)$/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

const excluded = (rel: string) => EXCLUDED.some((dir) => rel === dir || rel.startsWith(`${dir}/`));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (excluded(rel) || entry.name === 'node_modules') return [];
    if (entry.isDirectory()) return sourceFiles(rel);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/**
 * The module specifiers a file imports statically. Anchored at a line's start, so a JSDoc line (` * import ...`)
 * is not read as one; the import clause is only names, braces, commas and `*`, so the match cannot run on into code.
 */
export function importSpecifiers(source: string): string[] {
  const patterns = [
    /^[ \t]*(?:import|export)\s+(?:type\s+)?[\w\s{},*$]*?\bfrom\s*['"]([^'"\n]+)['"]/gm,
    /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]!));
}

/** The lib-relative file a specifier names, or null for a package, a data file, or a file outside the graph. */
function resolveSpecifier(fromRel: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(ROOT, specifier.slice(2));
  else if (specifier.startsWith('./') || specifier.startsWith('../')) base = resolve(ROOT, dirname(fromRel), specifier);
  else return null;
  const candidates = [base.replace(/\.js$/, '.ts'), base];
  for (const candidate of candidates) {
    for (const suffix of RESOLVE_SUFFIXES) {
      const file = candidate + suffix;
      if (existsSync(file) && statSync(file).isFile() && SOURCE.test(file)) {
        const rel = relative(ROOT, file);
        return excluded(rel) ? null : rel;
      }
    }
  }
  return null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles('lib')) {
    const targets = importSpecifiers(readFileSync(join(ROOT, file), 'utf8'))
      .map((s) => resolveSpecifier(file, s))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each cycle of `graph`, as one strongly connected component (Tarjan) of two files or more, or a file importing itself. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph of lib/ (outside lib/server and lib/generated)', () => {
  it('reads static imports and re-exports, and not a JSDoc line or a dynamic import', () => {
    const source = [
      "import { a, type B } from './a';",
      "import type { C } from '../c';",
      'import {',
      '  d,',
      '  e,',
      "} from '@/lib/d';",
      "export { f } from './f';",
      "export * from './g';",
      "import './side-effect';",
      " * import { nope } from './in-a-comment';",
      "const later = await import('./lazy');",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a', '../c', '@/lib/d', './f', './g', './side-effect']);
  });

  it('finds a cycle of two files and one of three, and none in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    expect(cycles(graph)).toEqual([
      ['c', 'd', 'e'],
      ['a', 'b'],
    ]);
    expect(
      cycles(
        new Map([
          ['x', ['y']],
          ['y', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no cycle', () => {
    const graph = importGraph();
    // the reader found the graph at all: a broken pattern would otherwise pass with no edges
    expect([...graph.values()].flat().length).toBeGreaterThan(200);
    const described = cycles(graph).map((c) => c.join(' <-> '));
    expect(described, 'import cycles in lib/ (break each: move what both need into a module both import)').toEqual([]);
  });
});
