/**
 * bench:ui's bare React Flow page, served by the bench itself rather than shipped in the app's build: bundles
 * bare-flow-page.tsx with esbuild (React's production build, minified, like `next build`) and serves it with its
 * stylesheet from a node http server on a free loopback port, at `/?n=<nodes>`.
 * Not responsible for measuring the page (ui.ts) or for the app's server (lib/harness/server.ts).
 */
import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface BareFlowServer {
  /** http://127.0.0.1:<port>; the page is `${base}/?n=<nodes>`. */
  base: string;
  close(): Promise<void>;
}

const HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>bare React Flow</title><link rel="stylesheet" href="/bare-flow.css"></head>
<body><div id="root"></div><script src="/bare-flow.js"></script></body>
</html>`;

export async function startBareFlowServer(): Promise<BareFlowServer> {
  const bundle = await build({
    entryPoints: { 'bare-flow': path.join(import.meta.dirname, 'bare-flow-page.tsx') },
    bundle: true,
    format: 'iife',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: '/bare-flow',
    write: false,
    logLevel: 'warning',
    tsconfig: path.join(import.meta.dirname, '../../tsconfig.json'),
  });
  const files = new Map<string, { type: string; body: Uint8Array }>([
    ['/', { type: 'text/html; charset=utf-8', body: new TextEncoder().encode(HTML) }],
  ]);
  for (const file of bundle.outputFiles) {
    const type = file.path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    files.set(`/${path.basename(file.path)}`, { type, body: file.contents });
  }
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.byteLength }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
