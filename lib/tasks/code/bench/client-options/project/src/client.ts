/** HTTP clients for the company's services: where they point, how long they wait, how often they retry. */

export interface Client {
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  headers: Record<string, string>;
}

/** A client for `baseUrl` (trailing slashes dropped, so paths join with one "/"). */
export function createClient(baseUrl: string, timeoutMs = 5_000, retries = 0, userAgent = 'arborist'): Client {
  return { baseUrl: baseUrl.replace(/\/+$/, ''), timeoutMs, retries, headers: { 'user-agent': userAgent } };
}

/** The full URL of `path` on the client's service. */
export function urlOf(client: Client, path: string): string {
  return `${client.baseUrl}/${path.replace(/^\/+/, '')}`;
}
