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

/** The largest limit the plans table holds (a PostgreSQL integer). */
export const MAX_PLAN_RATE_LIMIT = 2_147_483_647;

export interface PlanArgs {
  name: string;
  all?: boolean;
  competitions?: readonly string[];
  clubs?: readonly string[];
  /**
   * Accepted requests per key in the rolling window. A number sets the plan's own limit; null is the
   * `RATE_LIMIT` setting; unset keeps what the plan has (a new plan: the setting).
   */
  rateLimit?: number | null;
  /** Accept competition and club ids that are not in the loaded world yet (they are reported). */
  allowUnknown?: boolean;
}

export interface PlanInfo {
  readonly name: string;
  readonly all: boolean;
  readonly competitions: string[];
  readonly clubs: string[];
  /** The plan's own limit (requests per window), or null for the `RATE_LIMIT` setting. */
  readonly rate_limit: number | null;
  /** Ids that are well formed but not in the loaded world (only with --allow-unknown). */
  readonly unknown_competitions?: string[];
  readonly unknown_clubs?: string[];
}

/** Splits `A,B, C` into trimmed, non-empty, de-duplicated items. */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
}

/** The `--rate-limit` value: a whole number of requests per window, or `default` for the setting (null). */
export function parseRateLimit(value: string): number | null {
  const v = value.trim();
  if (v.toLowerCase() === 'default') return null;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  return checkPlanRateLimit(n, value);
}

function checkPlanRateLimit(n: unknown, shown: unknown = n): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > MAX_PLAN_RATE_LIMIT) {
    throw new AccessError(`Invalid rate limit: ${JSON.stringify(shown)} (a whole number of requests per window from 1 to ${MAX_PLAN_RATE_LIMIT}, or "default" for the RATE_LIMIT setting)`);
  }
  return n;
}

interface Scope {
  all: boolean;
  competitions: string[];
  clubs: string[];
}

function validateName(raw: string): string {
  const name = raw.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new AccessError(`Invalid plan name: ${JSON.stringify(raw)} (letters, digits, '.', '_' and '-', at most 64)`);
  }
  return name;
}

/** The scope the arguments name, or undefined when they name none (an update of the limit alone). */
function validateScope(args: PlanArgs): Scope | undefined {
  const competitions = [...new Set((args.competitions ?? []).map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
  const clubs = [...new Set((args.clubs ?? []).map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
  if (args.all && (competitions.length > 0 || clubs.length > 0)) {
    throw new AccessError('Give either --all or --competitions [--clubs], not both');
  }
  if (!args.all && competitions.length === 0 && clubs.length === 0) return undefined;
  const badCompetition = competitions.find((c) => !COMPETITION_ID.test(c));
  if (badCompetition) throw new AccessError(`Invalid competition id: ${badCompetition}`);
  const badClub = clubs.find((c) => !CLUB_ID_PATTERN.test(c));
  if (badClub) throw new AccessError(`Invalid club id: ${badClub}`);
  return { all: args.all === true, competitions: competitions.sort(), clubs: clubs.sort() };
}

const NO_SCOPE = 'A plan needs --all or at least one competition (--competitions A,B) or club (--clubs ID,ID)';

function validateRateLimit(value: number | null | undefined): number | null | undefined {
  return value === undefined || value === null ? value : checkPlanRateLimit(value);
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

/**
 * Finds the ids missing from the loaded world. Without `allowUnknown` any of them fails the command,
 * naming each one (a typo would make a plan that covers nothing); with it they are reported.
 */
async function checkKnown(db: Kysely<Database>, scope: Scope, allowUnknown: boolean | undefined) {
  const unknown = await unknownIds(db, scope.competitions, scope.clubs);
  if (allowUnknown) return unknown;
  const { unknown_competitions: comps, unknown_clubs: clubs } = unknown;
  if (comps.length === 0 && clubs.length === 0) return unknown;
  const parts = [
    ...(comps.length ? [`competition${comps.length > 1 ? 's' : ''}: ${comps.join(', ')}`] : []),
    ...(clubs.length ? [`club${clubs.length > 1 ? 's' : ''}: ${clubs.join(', ')}`] : []),
  ];
  throw new AccessError(`Unknown ${parts.join('; unknown ')}; nothing was changed (--allow-unknown accepts ids not imported yet)`);
}

type PlanFields = Pick<PlanRow, 'name' | 'all_competitions' | 'competitions' | 'clubs'> & { rate_limit: number | null };

function planInfo(p: PlanFields): PlanInfo {
  return { name: p.name, all: p.all_competitions, competitions: [...p.competitions], clubs: [...p.clubs], rate_limit: p.rate_limit };
}

/** `plans create`: a new plan; ids must be well formed and, unless allowed otherwise, in the loaded world. */
export async function createPlan(db: Kysely<Database>, args: PlanArgs): Promise<PlanInfo> {
  const name = validateName(args.name);
  const scope = validateScope(args);
  if (!scope) throw new AccessError(NO_SCOPE);
  const rateLimit = validateRateLimit(args.rateLimit) ?? null;
  const existing = await db.selectFrom('plans').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) throw new AccessError(`Plan already exists: ${name}`);
  const unknown = await checkKnown(db, scope, args.allowUnknown);
  const row = { name, all_competitions: scope.all, competitions: scope.competitions, clubs: scope.clubs, rate_limit: rateLimit };
  await db.insertInto('plans').values(row).execute();
  // A new plan is on no account yet, so no authentication answer changes: no version bump.
  return { ...planInfo(row), ...unknown };
}

/**
 * `plans update`: replaces what a plan covers and/or sets its limit (what is not given is kept);
 * every key of every account on it sees the change at once, on every instance (changeAccess).
 */
export async function updatePlan(db: Kysely<Database>, args: PlanArgs): Promise<PlanInfo> {
  const name = validateName(args.name);
  const scope = validateScope(args);
  const rateLimit = validateRateLimit(args.rateLimit);
  if (!scope && rateLimit === undefined) throw new AccessError(`${NO_SCOPE}, or a --rate-limit`);
  return changeAccess(db, async (trx) => {
    const current = await trx.selectFrom('plans').selectAll().where('name', '=', name).forUpdate().executeTakeFirst();
    if (!current) throw new AccessError(`Unknown plan: ${name}`);
    // Ids kept from before are reported, never refused: they were accepted when they were set.
    const unknown = scope ? await checkKnown(trx, scope, args.allowUnknown) : await unknownIds(trx, current.competitions, current.clubs);
    const next: PlanFields = {
      name,
      all_competitions: scope ? scope.all : current.all_competitions,
      competitions: scope ? scope.competitions : current.competitions,
      clubs: scope ? scope.clubs : current.clubs,
      rate_limit: rateLimit === undefined ? current.rate_limit : rateLimit,
    };
    await trx
      .updateTable('plans')
      .set({ all_competitions: next.all_competitions, competitions: next.competitions, clubs: next.clubs, rate_limit: next.rate_limit })
      .where('id', '=', current.id)
      .execute();
    await bumpAccessVersion(trx);
    return { ...planInfo(next), ...unknown };
  });
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
