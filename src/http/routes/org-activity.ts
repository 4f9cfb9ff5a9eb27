import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HttpDeps } from '../deps.js';
import { commonErrors } from '../schemas.js';
import { orgOf } from '../workspace-hook.js';
import { activityOut } from './lists.schema.js';
import { ORG_403 } from './org-members.js';

/** GET /v1/org/activity: the organisation's last 200 changes, newest first. */
export function orgActivityRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/v1/org/activity', {
    config: { workspace: 'activity.read' },
    schema: {
      tags: ['organisation'],
      summary: 'What the organisation\'s members changed lately, newest first',
      response: { 200: activityOut, ...commonErrors, 403: ORG_403 },
    },
  }, async (req) => {
    const rows = await deps.workspaces.activity(orgOf(req.workspace!).id);
    return {
      activity: rows.map((a) => ({
        at: a.at,
        actor: a.actor,
        action: a.action,
        ...(a.listId === null ? {} : { list_id: a.listId }),
        ...(a.playerId === null ? {} : { player_id: a.playerId }),
        detail: a.detail,
      })),
    };
  });
}
