/**
 * What bench:ui prints about where a browser's time went (BENCH_UI_PROFILE=<dir>): a Chromium performance trace
 * summarised as self time per DevTools timeline activity and thread (scripting, style, layout, paint, raster…),
 * and a V8 CPU profile summarised as the functions with the most self time, each shown with the minified source at
 * its position in the production build (.next/static/chunks) so it can be recognised. Both files are written too:
 * the trace opens in DevTools' Performance panel, the profile in its JavaScript profiler.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface TraceEvent {
  ph: string;
  name: string;
  cat?: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** Categories for browser.startTracing: the DevTools timeline (what the Performance panel shows). */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'blink.user_timing',
];

function threadGroup(name: string): string | null {
  if (name === 'CrRendererMain') return 'renderer main';
  if (name === 'Compositor') return 'compositor';
  if (name.startsWith('CompositorTileWorker') || name.startsWith('RasterWorker')) return 'raster workers';
  if (name === 'VizCompositorThread' || name === 'CrGpuMain') return 'viz / gpu';
  return null;
}

/** Self time per (thread group, activity) over the devtools.timeline events of a trace, in ms. */
export function summariseTrace(trace: Buffer | string, windowMs: number, label: string): void {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || !e.cat?.includes('devtools.timeline')) continue;
    const group = threadGroup(threads.get(`${e.pid}:${e.tid}`) ?? '');
    if (!group) continue;
    const key = `${group}|${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const self = new Map<string, number>();
  const busy = new Map<string, number>();
  for (const [key, list] of byThread) {
    const group = key.split('|')[0] as string;
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const stack: { end: number; name: string; self: number }[] = [];
    const close = (until: number) => {
      while (stack.length && (stack.at(-1) as { end: number }).end <= until) {
        const done = stack.pop() as { name: string; self: number };
        const k = `${group}|${done.name}`;
        self.set(k, (self.get(k) ?? 0) + done.self);
      }
    };
    for (const e of list) {
      close(e.ts);
      const dur = e.dur ?? 0;
      const parent = stack.at(-1);
      if (parent) parent.self -= Math.min(dur, parent.end - e.ts);
      else busy.set(group, (busy.get(group) ?? 0) + dur);
      stack.push({ end: e.ts + dur, name: e.name, self: dur });
    }
    close(Infinity);
  }
  console.log(`\n  ${label}: busy time per thread (of ${(windowMs / 1000).toFixed(1)} s) and its heaviest activities`);
  for (const [group, total] of [...busy].sort((a, b) => b[1] - a[1])) {
    const top = [...self]
      .filter(([k]) => k.startsWith(`${group}|`))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 7)
      .map(([k, t]) => `${k.split('|')[1]} ${(t / 1000).toFixed(0)}`)
      .join(', ');
    console.log(`    ${group.padEnd(15)} ${`${(total / 1000).toFixed(0)} ms`.padStart(9)}  ${top}`);
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The minified source at a position of a built chunk, to recognise a function whose name was mangled. */
function sourceAt(url: string, line: number, column: number): string {
  const match = /\/_next\/(static\/.+\.js)$/.exec(url);
  if (!match) return '';
  const file = path.join('.next', match[1] as string);
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8').split('\n')[line] ?? '';
  return text.slice(column, column + 90).replace(/\s+/g, ' ');
}

/** The functions with the most self time in a V8 CPU profile. */
export function summariseCpuProfile(profile: unknown, label: string): void {
  const p = profile as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, { ms: number; where: string }>();
  let total = 0;
  (p.samples ?? []).forEach((id, i) => {
    const dt = (p.timeDeltas?.[i] ?? 0) / 1000;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url.replace(/^.*\/_next\/static\/chunks\//, '');
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    const entry = self.get(key) ?? { ms: 0, where: sourceAt(frame.url, frame.lineNumber, frame.columnNumber) };
    entry.ms += dt;
    self.set(key, entry);
    total += dt;
  });
  console.log(
    `\n  ${label}: ${total.toFixed(0)} ms sampled; most self time ((program) is native: style, layout, paint)`,
  );
  for (const [key, { ms, where }] of [...self].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14)) {
    console.log(`  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
    if (where) console.log(`${' '.repeat(25)}${where}`);
  }
}

export interface RenderCounts {
  commits: number;
  cards: number[];
  cardMounts: number[];
  nodes: number[];
  edges: number[];
  /** DOM writes seen by a MutationObserver: node wrappers whose style changed, edge paths whose d changed. */
  nodeStyleWrites: number;
  edgePathWrites: number;
}

declare global {
  interface Window {
    __renders?: RenderCounts;
  }
}

/**
 * Installed before React loads (profile passes only): a minimal React DevTools hook whose onCommitFiberRoot counts,
 * per commit that touches the canvas, the node cards (data-testid=thought-node), React Flow node wrappers and edges
 * whose component actually rendered (the PerformedWork flag), walking only the subtrees React did not skip.
 */
export function installRenderCounter() {
  const counts: RenderCounts = {
    commits: 0,
    cards: [],
    cardMounts: [],
    nodes: [],
    edges: [],
    nodeStyleWrites: 0,
    edgePathWrites: 0,
  };
  window.__renders = counts;
  // per observer callback (about one per commit), each element counted once
  new MutationObserver((records) => {
    const nodes = new Set<Node>();
    const paths = new Set<Node>();
    for (const r of records) {
      const el = r.target as Element;
      if (r.attributeName === 'style' && el.classList?.contains('react-flow__node')) nodes.add(el);
      else if (r.attributeName === 'd' && el.classList?.contains('react-flow__edge-path')) paths.add(el);
    }
    const c = window.__renders as RenderCounts;
    c.nodeStyleWrites += nodes.size;
    c.edgePathWrites += paths.size;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['style', 'd'] });
  interface Fiber {
    tag: number;
    type: unknown;
    flags: number;
    memoizedProps: Record<string, unknown> | null;
    return: Fiber | null;
    child: Fiber | null;
    sibling: Fiber | null;
    alternate: Fiber | null;
  }
  const HOST = new Set([5, 6, 7]); // host component, text, fragment
  const owner = (f: Fiber) => {
    let p = f.return;
    while (p && HOST.has(p.tag)) p = p.return;
    return p;
  };
  const renderers = new Map<number, unknown>();
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers,
    inject(renderer: unknown) {
      renderers.set(renderers.size + 1, renderer);
      return renderers.size;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    setStrictMode() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      let cards = 0;
      let cardMounts = 0;
      let nodes = 0;
      let edges = 0;
      const stack: Fiber[] = [root.current];
      while (stack.length) {
        const f = stack.pop() as Fiber;
        if (f.tag === 5 && f.memoizedProps) {
          const props = f.memoizedProps;
          const cls = typeof props.className === 'string' ? props.className : '';
          const kind =
            props['data-testid'] === 'thought-node'
              ? 'card'
              : f.type === 'div' && cls.startsWith('react-flow__node ')
                ? 'node'
                : f.type === 'g' && cls.startsWith('react-flow__edge ')
                  ? 'edge'
                  : null;
          const component = kind ? owner(f) : null;
          if (component && (component.flags & 1) === 1) {
            if (kind === 'card') {
              if (component.alternate) cards++;
              else cardMounts++;
            } else if (kind === 'node') nodes++;
            else edges++;
          }
        }
        if (f.alternate && f.child === f.alternate.child) continue; // React skipped this subtree
        for (let c = f.child; c; c = c.sibling) stack.push(c);
      }
      if (cards + cardMounts + nodes + edges > 0) {
        counts.commits++;
        counts.cards.push(cards);
        counts.cardMounts.push(cardMounts);
        counts.nodes.push(nodes);
        counts.edges.push(edges);
      }
    },
  };
}

export function summariseRenders(counts: RenderCounts | undefined, cardsOnPage: number, label: string): void {
  if (!counts) return;
  const stat = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const sum = s.reduce((a, b) => a + b, 0);
    return `median ${s[Math.floor(s.length / 2)] ?? 0}, max ${s.at(-1) ?? 0}, total ${sum}`;
  };
  console.log(
    `\n  ${label}: ${counts.commits} React commits touched the canvas (${cardsOnPage} cards on the page at the end); per commit:\n` +
      `    cards re-rendered   ${stat(counts.cards)}\n` +
      `    cards mounted       ${stat(counts.cardMounts)}\n` +
      `    RF node wrappers    ${stat(counts.nodes)}\n` +
      `    RF edges            ${stat(counts.edges)}\n` +
      `  DOM writes (a MutationObserver): node wrappers whose style changed ${counts.nodeStyleWrites}, ` +
      `edge paths whose d changed ${counts.edgePathWrites}`,
  );
}
