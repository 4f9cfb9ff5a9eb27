import type { FastifyReply } from 'fastify';
import type { Snapshot } from '../domain/snapshot.js';

/** A body that never changes within a snapshot, serialised once per key and snapshot. */
export function cachedBody(store: WeakMap<Snapshot, Map<string, string>>, snapshot: Snapshot, key: string, make: () => unknown): string {
  let bodies = store.get(snapshot);
  if (!bodies) store.set(snapshot, (bodies = new Map()));
  let body = bodies.get(key);
  if (body === undefined) bodies.set(key, (body = JSON.stringify(make())));
  return body;
}

const asIs = (x: unknown) => x as string;

/** Sends JSON that is already serialised. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer(asIs).send(json);
}
