/**
 * The tRPC context: the server's services and who is acting. createContextInner is pure, so tests call routers
 * with createCaller against their own services (a temporary database), no HTTP.
 * Not responsible for creating the services (services.ts).
 */
import type { PrismaClient } from '../db/client';
import type { EventBus } from '../event-bus';
import type { RunManager } from '../run-manager';

export interface ServerServices {
  prisma: PrismaClient;
  bus: EventBus;
  manager: RunManager;
}

export interface Context extends ServerServices {
  /** Who is acting, recorded with each command: a name the browser sends, or "person". */
  actor: string;
}

export function createContextInner(services: ServerServices, actor = 'person'): Context {
  return { ...services, actor };
}

/** Names are shown in the event log, so they are short plain text. */
export function actorFromHeader(value: string | null): string {
  const name = (value ?? '')
    .replace(/[^\p{L}\p{N} ._@-]/gu, '')
    .trim()
    .slice(0, 40);
  return name || 'person';
}
