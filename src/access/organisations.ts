import type { Kysely } from 'kysely';
import type { Database } from '../data/schema.js';
import type { WorkspaceTables } from '../data/workspace-tables.js';
import { recordActivity } from '../data/workspace-store.js';
import { ORG_ROLES, type OrgRole } from '../domain/workspace.js';
import { normalizeEmail } from './accounts.js';
import { AccessError } from './messages.js';

/**
 * Organisations and their members (EXTENSIONS "Organisations, roles and shared lists"): the CLI's
 * `orgs` commands and the owners' /v1/org/members both come here. Membership is read from the
 * database on every request that needs it (memberOf), so a removal is in force at once on every instance.
 */
type Db = Kysely<Database>;
type ODb = Kysely<WorkspaceTables & Pick<Database, 'accounts'>>;
const orgDb = (db: Db) => db.withTables<WorkspaceTables>() as unknown as ODb;
/** The same transaction, seen with the workspace tables alone (the feed's writer knows no accounts). */
const feed = (trx: ODb) => trx as unknown as Kysely<WorkspaceTables>;

export type OrgErrorCode = 'unknown_account' | 'unknown_org' | 'org_exists' | 'other_org' | 'not_member' | 'last_owner';

/** A refused organisation change: `code` says which, for the API's answer; the message is the CLI's. */
export class OrgError extends AccessError {
  constructor(
    readonly code: OrgErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface Membership {
  readonly orgId: number;
  readonly organisation: string;
  readonly role: OrgRole;
}

export interface OrgMembers {
  readonly organisation: string;
  readonly members: { email: string; role: OrgRole }[];
}

export function parseRole(value: string): OrgRole {
  const r = value.trim().toLowerCase();
  if (!(ORG_ROLES as readonly string[]).includes(r)) throw new AccessError(`Invalid role: ${JSON.stringify(value)} (expected owner, scout or viewer)`);
  return r as OrgRole;
}

/** The account's organisation and role, or null when it belongs to none. */
export async function memberOf(db: Db, accountId: number): Promise<Membership | null> {
  const row = await orgDb(db)
    .selectFrom('org_members as m')
    .innerJoin('organisations as o', 'o.id', 'm.org_id')
    .select(['o.id', 'o.name', 'm.role'])
    .where('m.account_id', '=', accountId)
    .executeTakeFirst();
  return row ? { orgId: row.id, organisation: row.name, role: row.role as OrgRole } : null;
}

export async function membersOf(db: Db, orgId: number): Promise<OrgMembers> {
  const o = orgDb(db);
  const org = await o.selectFrom('organisations').select('name').where('id', '=', orgId).executeTakeFirstOrThrow();
  const rows = await o
    .selectFrom('org_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.email', 'm.role'])
    .where('m.org_id', '=', orgId)
    .orderBy('a.email')
    .execute();
  return { organisation: org.name, members: rows.map((r) => ({ email: r.email, role: r.role as OrgRole })) };
}

async function accountId(o: ODb, email: string): Promise<number> {
  const row = await o.selectFrom('accounts').select('id').where('email', '=', normalizeEmail(email)).executeTakeFirst();
  if (!row) throw new OrgError('unknown_account', `Unknown account: ${normalizeEmail(email)}`);
  return row.id;
}

async function orgByName(o: ODb, name: string): Promise<{ id: number; name: string }> {
  const row = await o.selectFrom('organisations').select(['id', 'name']).where('name', '=', name.trim()).executeTakeFirst();
  if (!row) throw new OrgError('unknown_org', `Unknown organisation: ${name.trim()}`);
  return row;
}

/** Locks the organisation's members, so two changes cannot both remove its last owner. */
async function owners(o: ODb, orgId: number): Promise<number[]> {
  const rows = await o.selectFrom('org_members').select(['account_id', 'role']).where('org_id', '=', orgId).forUpdate().execute();
  return rows.filter((r) => r.role === 'owner').map((r) => r.account_id);
}

/**
 * Adds the account to the organisation with `role`, or changes its role when it is a member already.
 * `actor` is who did it, for the activity feed (the operator's CLI: `operator`).
 */
export async function setMember(db: Db, orgId: number, email: string, role: OrgRole, actor: string): Promise<OrgMembers> {
  await orgDb(db).transaction().execute(async (trx) => {
    const id = await accountId(trx, email);
    const holders = await owners(trx, orgId);
    const current = await trx.selectFrom('org_members as m').innerJoin('organisations as o', 'o.id', 'm.org_id').select(['m.org_id', 'm.role', 'o.name']).where('m.account_id', '=', id).executeTakeFirst();
    const who = normalizeEmail(email);
    if (current && current.org_id !== orgId) throw new OrgError('other_org', `Account ${who} already belongs to organisation ${current.name}`);
    if (current?.role === role) return;
    if (current?.role === 'owner' && holders.length === 1) throw new OrgError('last_owner', `The organisation needs an owner: ${who} is its last one`);
    if (current) await trx.updateTable('org_members').set({ role }).where('account_id', '=', id).execute();
    else await trx.insertInto('org_members').values({ account_id: id, org_id: orgId, role }).execute();
    await recordActivity(feed(trx), {
      org_id: orgId,
      actor,
      action: current ? 'role_changed' : 'member_added',
      detail: current ? `made ${who} ${role} (was ${current.role})` : `added ${who} as ${role}`,
    });
  });
  return membersOf(db, orgId);
}

/** false when the account is not a member of the organisation. */
export async function removeMember(db: Db, orgId: number, email: string, actor: string): Promise<boolean> {
  return orgDb(db).transaction().execute(async (trx) => {
    const id = await accountId(trx, email);
    const holders = await owners(trx, orgId);
    const who = normalizeEmail(email);
    const r = await trx.selectFrom('org_members').select('role').where('account_id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
    if (!r) return false;
    if (r.role === 'owner' && holders.length === 1) throw new OrgError('last_owner', `The organisation needs an owner: ${who} is its last one`);
    await trx.deleteFrom('org_members').where('account_id', '=', id).execute();
    await recordActivity(feed(trx), { org_id: orgId, actor, action: 'member_removed', detail: `removed ${who}` });
    return true;
  });
}

const OPERATOR = 'operator';

/** `orgs create`: a new organisation with its first owner. */
export async function createOrganisation(db: Db, args: { name: string; owner: string }): Promise<OrgMembers> {
  const name = args.name.trim();
  if (name === '' || name.length > 100) throw new AccessError('Organisation name must be 1 to 100 characters');
  const o = orgDb(db);
  const id = await o.transaction().execute(async (trx) => {
    const owner = await accountId(trx, args.owner);
    if (await trx.selectFrom('organisations').select('id').where('name', '=', name).executeTakeFirst()) throw new OrgError('org_exists', `Organisation already exists: ${name}`);
    const taken = await trx.selectFrom('org_members as m').innerJoin('organisations as o', 'o.id', 'm.org_id').select('o.name').where('m.account_id', '=', owner).executeTakeFirst();
    if (taken) throw new OrgError('other_org', `Account ${normalizeEmail(args.owner)} already belongs to organisation ${taken.name}`);
    const org = await trx.insertInto('organisations').values({ name }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('org_members').values({ account_id: owner, org_id: org.id, role: 'owner' }).execute();
    await recordActivity(feed(trx), { org_id: org.id, actor: OPERATOR, action: 'member_added', detail: `created the organisation with ${normalizeEmail(args.owner)} as owner` });
    return org.id;
  });
  return membersOf(db, id);
}

/** `orgs add-member`. */
export async function addMemberByName(db: Db, args: { name: string; email: string; role: string }): Promise<OrgMembers> {
  const role = parseRole(args.role);
  const org = await orgByName(orgDb(db), args.name);
  return setMember(db, org.id, args.email, role, OPERATOR);
}

/** `orgs remove-member`. */
export async function removeMemberByName(db: Db, args: { name: string; email: string }): Promise<OrgMembers> {
  const org = await orgByName(orgDb(db), args.name);
  if (!(await removeMember(db, org.id, args.email, OPERATOR))) {
    throw new OrgError('not_member', `${normalizeEmail(args.email)} is not a member of ${org.name}`);
  }
  return membersOf(db, org.id);
}
