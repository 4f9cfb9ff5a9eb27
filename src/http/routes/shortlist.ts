import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SHORTLIST_MAX, type ShortlistEntry } from '../../domain/shortlist.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { requirePlayer } from '../guards.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { shortlistAddBody, shortlistEntryOut, shortlistOut, shortlistRemoveQuery } from './shortlist.schema.js';

function present(s: Snapshot, e: ShortlistEntry) {
  const p = s.players.get(e.playerId);
  return p ? { player_id: e.playerId, name: p.name, note: e.note, added_at: e.addedAt } : null;
}

/** GET, POST and DELETE /v1/shortlist (EXTENSIONS "Shortlists"): the account's own list. */
export function shortlistRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/shortlist', {
    schema: {
      tags: ['players'],
      summary: 'The account\'s shortlist, newest first',
      description: 'Per account, not per key: every key of the account sees the same list. A player the served data no longer holds is left out until it does again.',
      response: { 200: shortlistOut, ...commonErrors },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const entries = await deps.shortlists.list(req.principal!.accountId);
    return { players: entries.map((e) => present(s, e)).filter((e) => e !== null) };
  });

  r.post('/v1/shortlist', {
    schema: {
      tags: ['players'],
      summary: 'Add a player to the shortlist, or update his note',
      description: `At most ${SHORTLIST_MAX} players; adding a listed player again updates his note and keeps his place.`,
      body: shortlistAddBody,
      response: {
        200: shortlistEntryOut,
        ...commonErrors,
        409: errorResponse.describe(`\`Shortlist is full\`: ${SHORTLIST_MAX} players already; remove one first`),
      },
    },
  }, async (req) => {
    const s = deps.snapshot();
    const facts = requirePlayer(s, req.principal!, req.body.player_id);
    const outcome = await deps.shortlists.add(req.principal!.accountId, facts.player.id, req.body.note);
    if (!outcome.ok) throw new ApiError(409, 'Shortlist is full');
    return present(s, outcome.entry)!;
  });

  r.delete('/v1/shortlist', {
    schema: {
      tags: ['players'],
      summary: 'Remove a player from the shortlist',
      querystring: shortlistRemoveQuery,
      response: {
        204: z.null().describe('Removed'),
        ...commonErrors,
        404: errorResponse.describe('`Player not on shortlist`'),
      },
    },
  }, async (req, reply) => {
    const removed = await deps.shortlists.remove(req.principal!.accountId, req.query.player_id);
    if (!removed) throw new ApiError(404, 'Player not on shortlist');
    return reply.code(204).send(null);
  });
}
