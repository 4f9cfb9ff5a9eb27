import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Snapshot } from '../../domain/snapshot.js';
import { LIST_ENTRIES_MAX, type ListEntry } from '../../domain/workspace.js';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { requirePlayer } from '../guards.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { actorOf, ownerOf } from '../workspace-hook.js';
import { entriesOut, entryOut, entryPutBody, entryQuery, listQuery } from './lists.schema.js';
import { LIST_404, LIST_NOT_FOUND, ROLE_403 } from './lists.js';

function present(s: Snapshot, e: ListEntry) {
  return {
    player_id: e.playerId,
    // A player the served data no longer holds keeps his entry; his id stands in for his name.
    name: s.players.get(e.playerId)?.name ?? e.playerId,
    status: e.status,
    added_by: e.addedBy,
    added_at: e.addedAt,
    notes: e.notes.map((n) => ({ author: n.author, text: n.text, at: n.at })),
  };
}

/** GET, POST and DELETE /v1/lists/entries: the players on a list, their status and notes. */
export function listsEntriesRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/lists/entries', {
    config: { workspace: 'lists.read' },
    schema: {
      tags: ['lists'],
      summary: 'A list\'s players with status, who added them and the notes',
      querystring: listQuery,
      response: { 200: entriesOut, ...commonErrors, 404: LIST_404 },
    },
  }, async (req) => {
    const found = await deps.workspaces.list(ownerOf(req.workspace!), req.query.list_id);
    if (!found) throw new ApiError(404, LIST_NOT_FOUND);
    const s = deps.snapshot();
    return { list_id: found.summary.listId, name: found.summary.name, entries: found.entries.map((e) => present(s, e)) };
  });

  r.post('/v1/lists/entries', {
    config: { workspace: 'entries.write' },
    schema: {
      tags: ['lists'],
      summary: 'Add a player to a list, or change his status; a note is appended with its author (owner, scout)',
      description: `At most ${LIST_ENTRIES_MAX} players per list. The player must be within the caller's plan.`,
      body: entryPutBody,
      response: {
        200: entryOut,
        ...commonErrors,
        403: ROLE_403,
        404: errorResponse.describe('`List not found`, or `Player not found`'),
        409: errorResponse.describe(`\`List is full\`: ${LIST_ENTRIES_MAX} players already`),
      },
    },
  }, async (req) => {
    const ws = req.workspace!;
    const b = req.body;
    const s = deps.snapshot();
    // The list first: another organisation's list is not found whatever the player.
    if (!(await deps.workspaces.list(ownerOf(ws), b.list_id))) throw new ApiError(404, LIST_NOT_FOUND);
    const facts = requirePlayer(s, req.principal!, b.player_id);
    const outcome = await deps.workspaces.putEntry(ownerOf(ws), b.list_id, facts.player.id, { status: b.status, note: b.note, playerName: facts.player.name }, actorOf(ws));
    if (!outcome.ok) throw outcome.reason === 'full' ? new ApiError(409, 'List is full') : new ApiError(404, LIST_NOT_FOUND);
    return present(s, outcome.entry);
  });

  r.delete('/v1/lists/entries', {
    config: { workspace: 'entries.write' },
    schema: {
      tags: ['lists'],
      summary: 'Remove a player from a list, with his notes (owner, scout)',
      querystring: entryQuery,
      response: { 204: z.null().describe('Removed'), ...commonErrors, 403: ROLE_403, 404: errorResponse.describe('`List not found`, or `Player not on list`') },
    },
  }, async (req, reply) => {
    const ws = req.workspace!;
    const name = deps.snapshot().players.get(req.query.player_id)?.name ?? req.query.player_id;
    const outcome = await deps.workspaces.removeEntry(ownerOf(ws), req.query.list_id, req.query.player_id, name, actorOf(ws));
    if (outcome === 'no_list') throw new ApiError(404, LIST_NOT_FOUND);
    if (outcome === 'not_listed') throw new ApiError(404, 'Player not on list');
    return reply.code(204).send(null);
  });
}
