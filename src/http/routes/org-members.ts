import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MemberChangeOutcome, OrgMemberList } from '../../access/interface.js';
import type { HttpDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { commonErrors, errorResponse } from '../schemas.js';
import { orgOf } from '../workspace-hook.js';
import { memberPutBody, memberQuery, membersOut } from './lists.schema.js';

export const ORG_403 = errorResponse.describe('`Not a member of an organisation`, `Not allowed for your role`, or an account-level 403');

const present = (m: OrgMemberList) => ({ organisation: m.organisation, members: m.members.map((x) => ({ email: x.email, role: x.role })) });

function members(outcome: MemberChangeOutcome) {
  if (!outcome.ok) throw new ApiError(outcome.status, outcome.error);
  return present(outcome.members);
}

/** GET (any member), POST and DELETE (owner) /v1/org/members. */
export function orgMembersRoute(app: FastifyInstance, deps: HttpDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/v1/org/members', {
    config: { workspace: 'members.read' },
    schema: {
      tags: ['organisation'],
      summary: 'The caller\'s organisation and its members',
      response: { 200: membersOut, ...commonErrors, 403: ORG_403 },
    },
  }, async (req) => present(await deps.workspaceAccess.members(orgOf(req.workspace!).id)));

  r.post('/v1/org/members', {
    config: { workspace: 'members.manage' },
    schema: {
      tags: ['organisation'],
      summary: 'Add an account to the organisation, or change a member\'s role (owner)',
      description: 'The account must exist and belong to no other organisation. An organisation always keeps an owner.',
      body: memberPutBody,
      response: {
        200: membersOut,
        ...commonErrors,
        403: ORG_403,
        404: errorResponse.describe('`Account not found`'),
        409: errorResponse.describe('`Account belongs to another organisation`, or `An organisation needs an owner` (demoting its last owner)'),
      },
    },
  }, async (req) => {
    const ws = req.workspace!;
    return members(await deps.workspaceAccess.setMember(orgOf(ws).id, req.body.email, req.body.role, ws.email));
  });

  r.delete('/v1/org/members', {
    config: { workspace: 'members.manage' },
    schema: {
      tags: ['organisation'],
      summary: 'Remove a member (owner); his access to the organisation ends at once',
      querystring: memberQuery,
      response: {
        204: z.null().describe('Removed'),
        ...commonErrors,
        403: ORG_403,
        404: errorResponse.describe('`Account not found`, or `Member not found`'),
        409: errorResponse.describe('`An organisation needs an owner`: the last owner cannot be removed'),
      },
    },
  }, async (req, reply) => {
    const ws = req.workspace!;
    members(await deps.workspaceAccess.removeMember(orgOf(ws).id, req.query.email, ws.email));
    return reply.code(204).send(null);
  });
}
