/**
 * What the browser downloads per page, read from the last `next build` (Turbopack's build no longer prints
 * "First Load JS"): for each app route, the JavaScript its first load needs (the shared root chunks plus the
 * route's own entry chunks), raw and gzipped, and the whole of .next/static/chunks. Prints; asserts nothing.
 * Not responsible for building (run `npx next build` first) or for what is inside a chunk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const NEXT = join(process.cwd(), '.next');

interface ClientManifest {
  entryJSFiles?: Record<string, string[]>;
}

function manifests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifests(path);
    return name === 'page_client-reference-manifest.js' ? [path] : [];
  });
}

/** The manifest file assigns a global; run it against a scratch object rather than eval-ing into ours. */
function readManifest(path: string): ClientManifest {
  const scope: { __RSC_MANIFEST?: Record<string, ClientManifest> } = {};
  new Function('globalThis', readFileSync(path, 'utf8'))(scope);
  return Object.values(scope.__RSC_MANIFEST ?? {})[0] ?? {};
}

const sizes = new Map<string, { raw: number; gzip: number }>();
function size(file: string): { raw: number; gzip: number } {
  let known = sizes.get(file);
  if (!known) {
    const bytes = readFileSync(join(NEXT, file));
    known = { raw: bytes.length, gzip: gzipSync(bytes).length };
    sizes.set(file, known);
  }
  return known;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const build = JSON.parse(readFileSync(join(NEXT, 'build-manifest.json'), 'utf8')) as { rootMainFiles: string[] };
const appDir = join(NEXT, 'server', 'app');
const rows: [route: string, raw: string, gzip: string, chunks: string][] = [];
for (const path of manifests(appDir).sort()) {
  const route = `/${relative(appDir, path).replace(/\/?page_client-reference-manifest\.js$/, '')}`;
  if (route.startsWith('/_')) continue;
  const entries = readManifest(path).entryJSFiles ?? {};
  const files = new Set(build.rootMainFiles.filter((f) => f.endsWith('.js')));
  for (const list of Object.values(entries)) for (const f of list) if (f.endsWith('.js')) files.add(f);
  const total = [...files].reduce((sum, f) => ({ raw: sum.raw + size(f).raw, gzip: sum.gzip + size(f).gzip }), {
    raw: 0,
    gzip: 0,
  });
  rows.push([route, kb(total.raw), kb(total.gzip), String(files.size)]);
}
const chunksDir = join(NEXT, 'static', 'chunks');
const all = readdirSync(chunksDir).reduce((sum, f) => sum + statSync(join(chunksDir, f)).size, 0);

console.log('route'.padEnd(14), 'first load JS'.padStart(14), 'gzipped'.padStart(10), 'chunks'.padStart(7));
for (const [route, raw, gzip, count] of rows) {
  console.log(route.padEnd(14), raw.padStart(14), gzip.padStart(10), count.padStart(7));
}
console.log(`.next/static/chunks: ${all} bytes (${kb(all)})`);
