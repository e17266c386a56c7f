/**
 * Which model servers a run may call: the operator's choice, never a request's. The servers are the 'openai' preset
 * (OPENAI_BASE_URL) and the listed ones (ARBORIST_MODEL_SERVERS, read by env.ts); a base URL typed in the run form
 * ('custom') is for local mode, or for an admin in team mode, and then only to a public address.
 *
 * - `checkModelSpecAllowed`: what run.create and run.fork call before they store a spec (async: it resolves DNS).
 * - `isPublicAddress`: the address rule, from ipaddr.js's ranges: only plain unicast passes (loopback, private,
 *   link-local incl. 169.254.169.254, CGNAT, unique-local, unspecified, multicast, broadcast, reserved, and the
 *   IPv6 forms that embed an IPv4 address (6to4, NAT64, Teredo) are refused; an IPv4-mapped IPv6 address is judged
 *   as its IPv4 one). Host names spelt as decimal, hex or octal numbers are normalised by WHATWG URL first
 *   (http://2130706433/ has hostname 127.0.0.1).
 * - `publicOnlyFetch`: the fetch a team-mode custom URL's calls go through. DNS can answer differently at check
 *   time and at connect time (rebinding), so the check is made again on the address connected to: an undici Agent
 *   whose connect.lookup refuses any private answer, and a refusal of IP-literal hosts (which connect without a
 *   lookup). Redirects are not followed by any model call (lib/models/openai.ts), so a public server cannot bounce
 *   a call to a private one.
 * Not responsible for who is an admin or whether the server runs in team mode (the auth core passes both), nor for
 * building models (model-factory.ts).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import type { ModelSpec, OpenAIModelSpec } from '../../contract/model-spec';
import { displayURL, PRIVATE_ADDRESS } from '../../models/index';
import type { ModelServer, ServerEnv } from '../core/env';
import { ForbiddenError, InputError } from '../core/errors';

/** The part of the environment the rules read. */
export type ServersEnv = Pick<ServerEnv, 'ARBORIST_MODEL_SERVERS'>;

/** Resolves a host name to every address it has (dns.lookup with all: true); injectable for tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface AllowedContext {
  /** Team mode (accounts on): custom URLs are admins' only, and to public addresses only. */
  team: boolean;
  /** The actor is an admin. */
  admin: boolean;
  env: ServersEnv;
  /** Default: the system resolver (dns.lookup, all addresses). */
  resolve?: ResolveHost;
}

/** True for a plain unicast address on the public internet; false for anything else, an unparsable one included. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is
  return ipaddr.process(bare).range() === 'unicast';
}

/** The host of a URL as an IP literal (brackets removed), or null when it is a name. */
export function ipLiteralHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : null;
}

/** The listed server of that id, or null. */
export function findServer(env: ServersEnv, id: string): ModelServer | null {
  return env.ARBORIST_MODEL_SERVERS.find((s) => s.id === id) ?? null;
}

/** A URL's origin is a listed server's: the operator chose it, whatever its address. */
export function isListedOrigin(env: ServersEnv, url: string): boolean {
  const origin = originOf(url);
  return origin !== null && env.ARBORIST_MODEL_SERVERS.some((s) => originOf(s.baseURL) === origin);
}

/** What the run form may know of the listed servers: never a key, nor the variable that holds it. */
export function publicServers(env: ServersEnv): { id: string; label: string; baseURL: string; models: string[] }[] {
  return env.ARBORIST_MODEL_SERVERS.map((s) => ({
    id: s.id,
    label: s.label,
    baseURL: displayURL(s.baseURL),
    models: s.models ?? [],
  }));
}

/**
 * Refuses a model spec this actor may not run, with a message a person can act on: an unlisted server id, a model
 * the listed server does not offer, a custom URL in team mode from a non-admin (ForbiddenError), or to an address
 * that is not public (InputError on model.baseURL). Local mode allows any URL (the person owns the machine).
 */
export async function checkModelSpecAllowed(spec: ModelSpec, context: AllowedContext): Promise<void> {
  if (spec.provider !== 'openai') return;
  if (spec.baseUrlPreset === 'server') return checkListed(spec, context.env);
  if (spec.baseUrlPreset !== 'custom' || !context.team) return;
  if (!context.admin) {
    throw new ForbiddenError(
      'a custom model server is for admins on a shared server: pick one of the listed servers (ARBORIST_MODEL_SERVERS)',
    );
  }
  const baseURL = spec.baseURL ?? '';
  if (isListedOrigin(context.env, baseURL)) return;
  const url = new URL(baseURL);
  const literal = ipLiteralHost(url);
  const addresses = literal ? [literal] : await resolveOrRefuse(url.hostname, context.resolve ?? systemResolve);
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined) {
    const what = literal ? `${url.host} is` : `${url.host} resolves to ${refused},`;
    throw new InputError(
      'model.baseURL',
      `${what} a private, loopback, link-local or reserved address, which a shared server does not call: list the server in ARBORIST_MODEL_SERVERS to use it`,
    );
  }
}

function checkListed(spec: OpenAIModelSpec, env: ServersEnv): void {
  const server = findServer(env, spec.serverId ?? '');
  if (!server) {
    throw new InputError('model.serverId', `no model server "${spec.serverId ?? ''}" is listed on this server`);
  }
  const models = server.models ?? [];
  if (models.length > 0 && !models.includes(spec.model)) {
    throw new InputError('model.model', `${server.label} offers ${models.join(', ')}: pick one of them`);
  }
}

async function resolveOrRefuse(hostname: string, resolve: ResolveHost): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    throw new InputError('model.baseURL', `the host ${hostname} could not be resolved: check the base URL`);
  }
  if (addresses.length === 0) throw new InputError('model.baseURL', `the host ${hostname} has no address`);
  return addresses;
}

const systemResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function privateAddressError(host: string): Error {
  const error = new Error(`${host} is not a public address`) as Error & { code: string };
  error.code = PRIVATE_ADDRESS; // openai.ts says it in words and does not retry it
  return error;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * net.connect's lookup, refusing a host any of whose addresses `allows` refuses. Node asks for every address
 * (autoSelectFamily) or for one; both are answered, and the addresses checked are the ones connected to.
 */
export function guardedLookup(allows: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean } & object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((a) => !allows(a.address))) {
        return callback(privateAddressError(hostname), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * A fetch that connects only to addresses `allows` accepts, checked on the address connected to (see the header).
 * undici's own fetch with its own Agent (Node's bundled fetch may be another undici major); the Agent pools its
 * connections like the default fetch's.
 */
export function guardedFetch(allows: (address: string) => boolean): Fetch {
  let agent: Agent | null = null;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const literal = ipLiteralHost(url);
    // an IP literal connects without a lookup: judge it here
    if (literal !== null && !allows(literal)) {
      throw new TypeError('fetch failed', { cause: privateAddressError(url.hostname) });
    }
    agent ??= new Agent({ connect: { lookup: guardedLookup(allows) as never } });
    return (await undiciFetch(url, { ...(init as object), dispatcher: agent } as never)) as unknown as Response;
  };
}

/** The fetch of a team-mode custom URL's calls: public addresses only. */
export const publicOnlyFetch: Fetch = guardedFetch(isPublicAddress);
