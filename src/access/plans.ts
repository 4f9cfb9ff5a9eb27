import type { Kysely } from 'kysely';
import type { Database, PlanRow } from '../data/schema.js';
import { CLUB_ID_PATTERN } from '../domain/ids.js';
import type { Coverage } from './interface.js';
import { AccessError } from './messages.js';
import { changeAccess } from './changes.js';
import { bumpAccessVersion } from './version.js';

/** The coverage of a plan that names everything. */
export const ALL_COVERAGE: Coverage = Object.freeze({ all: true, competitions: new Set<string>(), clubs: new Set<string>() });

export function coverageOfPlan(plan: Pick<PlanRow, 'all_competitions' | 'competitions' | 'clubs'>): Coverage {
  return Object.freeze({
    all: plan.all_competitions,
    competitions: new Set(plan.competitions),
    clubs: new Set(plan.clubs),
  });
}

/** A plan that names nothing gives no access at all (`Account access denied: no plan access`). */
export function isEmptyCoverage(c: Coverage): boolean {
  return !c.all && c.competitions.size === 0 && c.clubs.size === 0;
}

/** Club id -> the competition of its current-season league (null/undefined when none or unknown). */
export type LeagueOf = (clubId: string) => string | null | undefined;

export function isCompetitionCovered(c: Coverage, competitionId: string): boolean {
  return c.all || c.competitions.has(competitionId);
}

/** A club is covered when it is an extra club of the plan or its current-season league is on the plan. */
export function isClubCovered(c: Coverage, clubId: string | null | undefined, leagueOfClub: LeagueOf): boolean {
  if (c.all) return true;
  if (!clubId) return false;
  if (c.clubs.has(clubId)) return true;
  const league = leagueOfClub(clubId);
  return league !== null && league !== undefined && c.competitions.has(league);
}

/** A player is covered when his current team or his owning club (the parent club of a loan) is covered. */
export function isPlayerCovered(c: Coverage, currentTeam: string | null | undefined, owningClub: string | null | undefined, leagueOf: LeagueOf): boolean {
  return c.all || isClubCovered(c, currentTeam, leagueOf) || isClubCovered(c, owningClub, leagueOf);
}

// --- plan administration -------------------------------------------------------------------

const COMPETITION_ID = /^[A-Z0-9]+(?:_[A-Z0-9]+)*$/;

export interface PlanArgs {
  name: string;
  all?: boolean;
  competitions?: readonly string[];
  clubs?: readonly string[];
}

export interface PlanInfo {
  readonly name: string;
  readonly all: boolean;
  readonly competitions: string[];
  readonly clubs: string[];
  /** Ids that are well formed but not in the loaded world (the world may be imported later). */
  readonly unknown_competitions?: string[];
  readonly unknown_clubs?: string[];
}

/** Splits `A,B, C` into trimmed, non-empty, de-duplicated items. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
}

function validatePlanArgs(args: PlanArgs): { name: string; all: boolean; competitions: string[]; clubs: string[] } {
  const name = args.name.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new AccessError(`Invalid plan name: ${JSON.stringify(args.name)} (letters, digits, '.', '_' and '-', at most 64)`);
  }
  const competitions = [...new Set((args.competitions ?? []).map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
  const clubs = [...new Set((args.clubs ?? []).map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
  if (args.all && (competitions.length > 0 || clubs.length > 0)) {
    throw new AccessError('Give either --all or --competitions [--clubs], not both');
  }
  if (!args.all && competitions.length === 0 && clubs.length === 0) {
    throw new AccessError('A plan needs --all or at least one competition (--competitions A,B) or club (--clubs ID,ID)');
  }
  const badCompetition = competitions.find((c) => !COMPETITION_ID.test(c));
  if (badCompetition) throw new AccessError(`Invalid competition id: ${badCompetition}`);
  const badClub = clubs.find((c) => !CLUB_ID_PATTERN.test(c));
  if (badClub) throw new AccessError(`Invalid club id: ${badClub}`);
  return { name, all: args.all === true, competitions: competitions.sort(), clubs: clubs.sort() };
}

async function unknownIds(db: Kysely<Database>, competitions: string[], clubs: string[]) {
  const knownCompetitions =
    competitions.length === 0 ? [] : (await db.selectFrom('competitions').select('id').where('id', 'in', competitions).execute()).map((r) => r.id);
  const knownClubs = clubs.length === 0 ? [] : (await db.selectFrom('clubs').select('id').where('id', 'in', clubs).execute()).map((r) => r.id);
  return {
    unknown_competitions: competitions.filter((c) => !knownCompetitions.includes(c)),
    unknown_clubs: clubs.filter((c) => !knownClubs.includes(c)),
  };
}

function planInfo(p: Pick<PlanRow, 'name' | 'all_competitions' | 'competitions' | 'clubs'>): PlanInfo {
  return { name: p.name, all: p.all_competitions, competitions: [...p.competitions], clubs: [...p.clubs] };
}

/** `plans create`: a new plan; ids must be well formed, ids missing from the loaded world are reported. */
export async function createPlan(db: Kysely<Database>, args: PlanArgs): Promise<PlanInfo> {
  const v = validatePlanArgs(args);
  const existing = await db.selectFrom('plans').select('id').where('name', '=', v.name).executeTakeFirst();
  if (existing) throw new AccessError(`Plan already exists: ${v.name}`);
  await db.insertInto('plans').values({ name: v.name, all_competitions: v.all, competitions: v.competitions, clubs: v.clubs }).execute();
  // A new plan is on no account yet, so no authentication answer changes: no version bump.
  return { ...planInfo({ name: v.name, all_competitions: v.all, competitions: v.competitions, clubs: v.clubs }), ...(await unknownIds(db, v.competitions, v.clubs)) };
}

/** `plans update`: replaces what a plan covers; every account on it sees the change. */
export async function updatePlan(db: Kysely<Database>, args: PlanArgs): Promise<PlanInfo> {
  const v = validatePlanArgs(args);
  await changeAccess(db, async (trx) => {
    const res = await trx
      .updateTable('plans')
      .set({ all_competitions: v.all, competitions: v.competitions, clubs: v.clubs })
      .where('name', '=', v.name)
      .returning('id')
      .executeTakeFirst();
    // Affected-row counts are not reported by every driver (PGlite): RETURNING is.
    if (!res) throw new AccessError(`Unknown plan: ${v.name}`);
    await bumpAccessVersion(trx);
  });
  return { ...planInfo({ name: v.name, all_competitions: v.all, competitions: v.competitions, clubs: v.clubs }), ...(await unknownIds(db, v.competitions, v.clubs)) };
}

export async function listPlans(db: Kysely<Database>): Promise<PlanInfo[]> {
  const rows = await db.selectFrom('plans').selectAll().orderBy('name').execute();
  return rows.map(planInfo);
}

export async function planIdByName(db: Kysely<Database>, name: string): Promise<number> {
  const row = await db.selectFrom('plans').select('id').where('name', '=', name.trim()).executeTakeFirst();
  if (!row) throw new AccessError(`Unknown plan: ${name.trim()}`);
  return row.id;
}
