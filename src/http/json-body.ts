import type { FastifyReply } from 'fastify';
import { memoTable } from '../domain/memo.js';
import type { Snapshot } from '../domain/snapshot.js';

/** A body that never changes within a snapshot, serialised once per key and snapshot (bodies of one kind share `table`). */
export function cachedBody(table: string, snapshot: Snapshot, key: string, make: () => unknown): string {
  const bodies = memoTable<string>(snapshot, table);
  let body = bodies.get(key);
  if (body === undefined) bodies.set(key, (body = JSON.stringify(make())));
  return body;
}

const asIs = (x: unknown) => x as string;

/** Sends JSON that is already serialised. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer(asIs).send(json);
}
