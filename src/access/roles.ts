import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import type { OrgRole } from '../domain/workspace.js';
import { memberOf, membersOf, OrgError, removeMember, setMember, type Membership } from './organisations.js';
import type { MemberChangeOutcome, Principal, Workspace, WorkspaceAccess, WorkspaceOutcome, WorkspaceRight } from './interface.js';

/**
 * Who may do what in a workspace, in one table (DESIGN: roles are checked in access/, in one place,
 * before any handler runs). An account without an organisation holds its own lists and may do
 * everything with them; the organisation's members, activity and shadow squad need one.
 */
const RIGHTS: Record<WorkspaceRight, { roles: readonly OrgRole[]; withoutOrg: boolean }> = {
  'lists.read': { roles: ['owner', 'scout', 'viewer'], withoutOrg: true },
  'lists.create': { roles: ['owner', 'scout'], withoutOrg: true },
  'lists.delete': { roles: ['owner'], withoutOrg: true },
  'entries.write': { roles: ['owner', 'scout'], withoutOrg: true },
  'members.read': { roles: ['owner', 'scout', 'viewer'], withoutOrg: false },
  'members.manage': { roles: ['owner'], withoutOrg: false },
  'activity.read': { roles: ['owner', 'scout', 'viewer'], withoutOrg: false },
  'shadow.read': { roles: ['owner', 'scout', 'viewer'], withoutOrg: false },
  'shadow.write': { roles: ['owner', 'scout'], withoutOrg: false },
  'shadow.analyse': { roles: ['owner', 'scout', 'viewer'], withoutOrg: false },
};

export const ROLE_DENIED = 'Not allowed for your role';
export const NO_ORGANISATION = 'Not a member of an organisation';

export function decide(principal: Principal, membership: Membership | null, right: WorkspaceRight): WorkspaceOutcome {
  const rule = RIGHTS[right];
  if (membership === null) {
    if (!rule.withoutOrg) return { ok: false, status: 403, error: NO_ORGANISATION };
    return { ok: true, workspace: { accountId: principal.accountId, email: principal.email, org: null } };
  }
  if (!rule.roles.includes(membership.role)) return { ok: false, status: 403, error: ROLE_DENIED };
  const workspace: Workspace = {
    accountId: principal.accountId,
    email: principal.email,
    org: { id: membership.orgId, name: membership.organisation, role: membership.role },
  };
  return { ok: true, workspace };
}

/** The API's answer to a refused member change (the CLI prints the error's own message). */
const REFUSALS: Partial<Record<OrgError['code'], { status: 404 | 409; error: string }>> = {
  unknown_account: { status: 404, error: 'Account not found' },
  not_member: { status: 404, error: 'Member not found' },
  other_org: { status: 409, error: 'Account belongs to another organisation' },
  last_owner: { status: 409, error: 'An organisation needs an owner' },
};

async function memberChange(work: () => Promise<MemberChangeOutcome>): Promise<MemberChangeOutcome> {
  try {
    return await work();
  } catch (err) {
    const refusal = err instanceof OrgError ? REFUSALS[err.code] : undefined;
    if (refusal) return { ok: false, ...refusal };
    throw err;
  }
}

/** Reads the membership on every request: a removed member is refused at once, on every instance. */
export function createWorkspaceAccess(db: Kysely<Database>): WorkspaceAccess {
  return {
    async check(principal, right) {
      return decide(principal, await memberOf(db, principal.accountId), right);
    },
    members: (orgId) => membersOf(db, orgId),
    setMember: (orgId, email, role, actor) => memberChange(async () => ({ ok: true, members: await setMember(db, orgId, email, role, actor) })),
    removeMember: (orgId, email, actor) =>
      memberChange(async () => {
        if (!(await removeMember(db, orgId, email, actor))) return { ok: false, status: 404, error: 'Member not found' };
        return { ok: true, members: await membersOf(db, orgId) };
      }),
  };
}
