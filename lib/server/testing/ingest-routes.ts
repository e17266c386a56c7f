/**
 * Test support: the ingest API's and the OTLP receiver's real route handlers (lib/server/ingest/http.ts: guard, principal, service) served on
 * a loopback port over the given services, so a client (the TypeScript SDK, the Python client) can be tested against
 * the production server's answers without building Next. Local mode: the loopback guard admits it as the local person.
 * Used by the server's tests only; the process's services are these until close(), so one at a time.
 * Not the app's routing (app/api/ingest/runs/...): the same handlers, reached by matching the path here.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ingestCommandsResponse,
  ingestCreateResponse,
  ingestEventsResponse,
  ingestFinishResponse,
  ingestHeartbeatResponse,
} from '../http/ingest';
import { otlpEmptyResponse, otlpTracesResponse } from '../http/otlp';
import type { ServerServices } from '../services';

export interface IngestRoutesServer {
  url: string;
  close(): Promise<void>;
}

const globalForServices = globalThis as typeof globalThis & { arboristServices?: Promise<ServerServices> };

const RUN_ROUTES: Record<string, (request: Request, runId: string) => Promise<Response>> = {
  'POST events': ingestEventsResponse,
  'POST finish': ingestFinishResponse,
  'POST heartbeat': ingestHeartbeatResponse,
  'GET commands': ingestCommandsResponse,
};

async function route(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (request.method === 'POST' && path === '/api/ingest/runs') return ingestCreateResponse(request);
  // the OTLP receiver's routes (app/v1/... and app/api/otel/v1/...)
  const otlp = /^(?:\/api\/otel)?\/v1\/(traces|metrics|logs)$/.exec(path);
  if (request.method === 'POST' && otlp) {
    return otlp[1] === 'traces'
      ? otlpTracesResponse(request)
      : otlpEmptyResponse(request, otlp[1] as 'metrics' | 'logs');
  }
  const match = /^\/api\/ingest\/runs\/([^/]+)\/([a-z]+)$/.exec(path);
  const handler = match && RUN_ROUTES[`${request.method} ${match[2]}`];
  return handler
    ? handler(request, decodeURIComponent(match[1]!))
    : Response.json({ error: 'no route' }, { status: 404 });
}

async function toRequest(req: IncomingMessage, abort: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, signal: abort });
}

async function answer(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Serves the ingest routes over `services` (which become the process's services) on a free loopback port. */
export async function serveIngestRoutes(services: ServerServices): Promise<IngestRoutesServer> {
  const before = globalForServices.arboristServices;
  globalForServices.arboristServices = Promise.resolve(services);
  const server = createServer((req, res) => {
    // a long poll ends when its client goes away (the SDK aborts it at finish)
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    toRequest(req, abort.signal)
      .then(route)
      .then((response) => answer(res, response))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        globalForServices.arboristServices = before;
      }),
  };
}
