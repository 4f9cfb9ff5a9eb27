import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LISTS_MAX, type ListSummary } from '../../domain/workspace.js';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { actorOf, ownerOf } from '../workspace-hook.js';
import { listCreateBody, listOut, listQuery, listsOut } from './lists.schema.js';

export const LIST_NOT_FOUND = 'List not found';
export const ROLE_403 = errorResponse.describe('`Not allowed for your role` (a viewer writing, a scout deleting a list), or an account-level 403');
export const LIST_404 = errorResponse.describe('`List not found`: no list of the caller\'s organisation (or own, without one) has this id');

export const presentList = (l: ListSummary) => ({ list_id: l.listId, name: l.name, players: l.players, updated_at: l.updatedAt });

/** GET, POST and DELETE /v1/lists (EXTENSIONS "Organisations, roles and shared lists"). */
export function listsRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/lists', {
    config: { workspace: 'lists.read' },
    schema: {
      tags: ['lists'],
      summary: 'The organisation\'s shared lists',
      description: 'Every member sees the organisation\'s lists; an account without an organisation has lists of its own, the first its "Shortlist" (the one /v1/shortlist reads and writes).',
      response: { 200: listsOut, ...commonErrors },
    },
  }, async (req) => ({ lists: (await deps.workspaces.lists(ownerOf(req.workspace!), actorOf(req.workspace!))).map(presentList) }));

  r.post('/v1/lists', {
    config: { workspace: 'lists.create' },
    schema: {
      tags: ['lists'],
      summary: 'Create a list (owner, scout)',
      description: `At most ${LISTS_MAX} lists per organisation.`,
      body: listCreateBody,
      response: { 201: listOut, ...commonErrors, 403: ROLE_403, 409: errorResponse.describe(`\`Too many lists\`: ${LISTS_MAX} already; delete one first`) },
    },
  }, async (req, reply) => {
    const ws = req.workspace!;
    const list = await deps.workspaces.createList(ownerOf(ws), req.body.name, actorOf(ws));
    if (!list) throw new ApiError(409, 'Too many lists');
    return reply.code(201).send(presentList(list));
  });

  r.delete('/v1/lists', {
    config: { workspace: 'lists.delete' },
    schema: {
      tags: ['lists'],
      summary: 'Delete a list with its players and notes (owner)',
      querystring: listQuery,
      response: { 204: z.null().describe('Deleted'), ...commonErrors, 403: ROLE_403, 404: LIST_404 },
    },
  }, async (req, reply) => {
    const ws = req.workspace!;
    if (!(await deps.workspaces.deleteList(ownerOf(ws), req.query.list_id, actorOf(ws)))) throw new ApiError(404, LIST_NOT_FOUND);
    return reply.code(204).send(null);
  });
}
