/**
 * Where a request comes from, checked before any route does anything:
 * - a write (any method but GET/HEAD) from a browser page of another site is refused: its Origin must be this
 *   server's own host or an allowed origin, and Sec-Fetch-Site, when sent, must say same-origin. Clients that send
 *   neither (curl, scripts) are not browsers and carry no one's ambient cookies, so they pass on to authentication.
 * - a write must say what it sends (`application/json`; `application/x-ndjson` for ingest batches,
 *   `application/x-protobuf` for OTLP exports), so an HTML form or a "simple" cross-site fetch, which can
 *   only send text/plain, form or multipart bodies, never reaches a handler.
 * - in local mode, the Host must be a loopback name (or an allowed origin's host), so a web page that rebinds its
 *   own DNS name to 127.0.0.1 cannot read or write this server (ARBORIST_ALLOW_OPEN=1 lifts it).
 * Returns the refusal as a Response, or null when the request may go on.
 * Not responsible for who is asking (principal.ts).
 */
import type { AuthSettings } from './settings';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/**
 * The bodies a write may say it sends: JSON, NDJSON (the ingest API's batches) and protobuf (OTLP exports; the
 * receiver takes `application/protobuf` too). None is a type a form or a "simple" cross-site fetch can send, so a
 * page of another site still cannot write without a preflight.
 */
const WRITE_TYPES = new Set([
  'application/json',
  'application/x-ndjson',
  'application/x-protobuf',
  'application/protobuf',
]);

function refuse(status: number, error: string): Response {
  return Response.json({ error }, { status, headers: { 'cache-control': 'no-store' } });
}

function hostName(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

export function checkRequestOrigin(request: Request, settings: AuthSettings): Response | null {
  // the Host header only: X-Forwarded-Host could be set by the very page this guards against (a same-origin fetch
  // after DNS rebinding may add any header); behind a proxy, list its public origin in ARBORIST_ALLOWED_ORIGINS
  const host = request.headers.get('host') ?? '';
  const allowedHosts = settings.allowedOrigins.map((origin) => new URL(origin).host);
  if (!settings.team && !settings.allowOpen) {
    const name = hostName(host);
    if (!LOOPBACK_HOSTS.has(name) && !allowedHosts.includes(host)) {
      return refuse(
        403,
        `this server answers only on localhost, not "${name || host}": set ARBORIST_ALLOWED_ORIGINS to its public origin, or turn on team mode`,
      );
    }
  }
  if (request.method === 'GET' || request.method === 'HEAD') return null;

  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') {
    return refuse(403, `cross-site request refused (Sec-Fetch-Site: ${site})`);
  }
  const origin = request.headers.get('origin');
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      originHost = origin === 'null' ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost !== host && !settings.allowedOrigins.includes(origin)) {
      return refuse(403, `cross-origin request refused (Origin: ${origin.slice(0, 100)})`);
    }
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!WRITE_TYPES.has(type)) {
    return refuse(
      415,
      `send the body as application/json (application/x-protobuf for OTLP exports; got ${type || 'no content type'})`,
    );
  }
  return null;
}
