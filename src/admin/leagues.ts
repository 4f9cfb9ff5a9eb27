import { servedAsOf } from '../config.js';
import type { Db } from '../data/db.js';
import { readMeta } from '../data/world-store.js';
import { loadSeasonClubs, saveSeasonClubs } from '../data/season-clubs-store.js';
import { CLUB_ID_PATTERN } from '../domain/ids.js';
import { parseSeasonLabel, seasonLabel, seasonOf } from '../domain/season.js';
import { defineOperation } from '../operation.js';

/**
 * Season membership: which clubs make up a domestic league in a season (`touchline leagues
 * set-clubs|show`). Every simulation of the analysis season reads it (domain/snapshot.ts,
 * withSeasonClubs). The checks run before anything is written: one bad club and nothing changes.
 */
export class MembershipError extends Error {}

export interface SetClubsArgs {
  competition: string;
  season: string;
  clubs?: string[];
  registryAIds?: string[];
}

export interface MemberClub {
  club_id: string;
  registry_a_id: number | null;
  name: string;
}

export interface MembershipInfo {
  competition: string;
  season: string;
  /** set: by `leagues set-clubs`; data: the season's clubs in the data; default: the current season's clubs */
  source: 'set' | 'data' | 'default';
  clubs: MemberClub[];
}

const MAX_REGISTRY_ID = 1e12;

async function domesticLeague(db: Db, competition: unknown): Promise<string> {
  if (typeof competition !== 'string' || competition.trim() === '') throw new MembershipError('A competition id is required, e.g. PREMIER_LEAGUE');
  const id = competition.trim();
  const row = await db.selectFrom('competitions').select(['id', 'type']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new MembershipError(`Unknown competition: ${id}`);
  if (row.type !== 'DOMESTIC_LEAGUE') throw new MembershipError(`${id} is not a domestic league (it is a ${row.type})`);
  return id;
}

function season(label: unknown): number {
  const s = typeof label === 'string' ? parseSeasonLabel(label.trim()) : null;
  if (s === null) throw new MembershipError(`Invalid season ${JSON.stringify(label)}, must be in the format YYYY/YYYY (e.g. 2024/2025)`);
  return s;
}

function duplicates(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(list.filter((x) => seen.has(x) || !seen.add(x)))];
}

/** Resolves the named clubs; every unknown or malformed one is named in the one error. */
async function resolveClubs(db: Db, args: SetClubsArgs): Promise<MemberClub[]> {
  const byId = args.clubs !== undefined, byRegistry = args.registryAIds !== undefined;
  if (byId === byRegistry) throw new MembershipError('Name the clubs with exactly one of --clubs C...,C... or --registry-a-ids N,N');
  const list = ((byId ? args.clubs : args.registryAIds) ?? []).map((x) => String(x).trim());
  if (list.length < 2 || list.some((x) => x === '')) throw new MembershipError('A league needs at least two clubs, separated by commas');
  const twice = duplicates(list);
  if (twice.length > 0) throw new MembershipError(`Listed more than once: ${twice.join(', ')}`);
  if (byId) {
    const malformed = list.filter((c) => !CLUB_ID_PATTERN.test(c));
    if (malformed.length > 0) throw new MembershipError(`Invalid club id${malformed.length > 1 ? 's' : ''} (C + 26 characters): ${malformed.join(', ')}; nothing was changed`);
    const rows = await db.selectFrom('clubs').select(['id', 'registry_a_id', 'name']).where('id', 'in', list).execute();
    const found = new Map(rows.map((r) => [r.id, r]));
    const unknown = list.filter((c) => !found.has(c));
    if (unknown.length > 0) throw new MembershipError(`Unknown club${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; nothing was changed`);
    return list.map((c) => member(found.get(c)!));
  }
  const malformed = list.filter((x) => !/^\d+$/.test(x) || Number(x) < 1 || Number(x) > MAX_REGISTRY_ID);
  if (malformed.length > 0) throw new MembershipError(`Invalid registry_a_id${malformed.length > 1 ? 's' : ''} (whole numbers 1 to 10^12): ${malformed.join(', ')}; nothing was changed`);
  const ids = list.map(Number);
  const rows = await db.selectFrom('clubs').select(['id', 'registry_a_id', 'name']).where('registry_a_id', 'in', ids).execute();
  const found = new Map(rows.map((r) => [Number(r.registry_a_id), r]));
  const unknown = ids.filter((n) => !found.has(n));
  if (unknown.length > 0) throw new MembershipError(`Unknown club${unknown.length > 1 ? 's' : ''} with registry_a_id ${unknown.join(', ')}; nothing was changed`);
  return ids.map((n) => member(found.get(n)!));
}

function member(r: { id: string; registry_a_id: number | string | null; name: string }): MemberClub {
  return { club_id: r.id, registry_a_id: r.registry_a_id === null ? null : Number(r.registry_a_id), name: r.name };
}

const byName = (a: MemberClub, b: MemberClub) => a.name.localeCompare(b.name) || a.club_id.localeCompare(b.club_id);

/** Makes the clubs the league's whole membership in the season. */
export async function setSeasonClubs(db: Db, args: SetClubsArgs): Promise<MembershipInfo & { moved_from: string[] }> {
  const competition = await domesticLeague(db, args.competition);
  const s = season(args.season);
  const clubs = await resolveClubs(db, args);
  const { movedFrom } = await saveSeasonClubs(db, competition, s, clubs.map((c) => c.club_id));
  return { competition, season: seasonLabel(s), source: 'set', clubs: [...clubs].sort(byName), moved_from: movedFrom };
}

/** The league's clubs in the season: as set, else as in the data, else (a later season) the current season's. */
export async function showSeasonClubs(db: Db, args: { competition: string; season?: string }, asOf: string): Promise<MembershipInfo> {
  const competition = await domesticLeague(db, args.competition);
  const current = seasonOf(asOf);
  const s = args.season === undefined ? current + 1 : season(args.season);
  const stored = (await loadSeasonClubs(db)).filter((r) => r.season === s);
  const set = stored.filter((r) => r.competition_id === competition).map((r) => r.club_id);
  // As the simulations see it: a club set in another league for the season has left this one.
  const elsewhere = new Set(stored.map((r) => r.club_id));
  let ids = set;
  let source: MembershipInfo['source'] = 'set';
  if (set.length === 0) {
    source = s <= current ? 'data' : 'default';
    const rows = await db.selectFrom('club_seasons').select('club_id').where('competition_id', '=', competition).where('season', '=', Math.min(s, current)).execute();
    ids = rows.map((r) => r.club_id).filter((c) => s <= current || !elsewhere.has(c));
  }
  const clubs = ids.length === 0 ? [] : await db.selectFrom('clubs').select(['id', 'registry_a_id', 'name']).where('id', 'in', ids).execute();
  return { competition, season: seasonLabel(s), source, clubs: clubs.map(member).sort(byName) };
}

export const leagueOps = {
  setClubs: defineOperation('leagues.set-clubs', ({ handle }, a: SetClubsArgs & Record<string, unknown>) => setSeasonClubs(handle.db, a)),
  show: defineOperation('leagues.show', async ({ handle, config }, a: { competition: string; season?: string }) => showSeasonClubs(handle.db, a, servedAsOf(config, await readMeta(handle.db)))),
};
