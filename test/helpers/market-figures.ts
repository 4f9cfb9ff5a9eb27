/**
 * What a football person reads first in a world's market, computed as the scouting list
 * (`/v1/players`) shows it: players at a club at the as-of date (a running career step), each with
 * his latest market value on or before that date, his age on it, his current team and the end date
 * of his contract in force. bench/demo-world.ts prints these figures for the demo world beside the
 * real data; test/data/demo-market.test.ts holds the demo world to them.
 */
import type { Snapshot } from '../../src/domain/snapshot.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { latestValue } from '../../src/discovery/latest-value.js';

/** One player as the scouting list shows him. */
export interface ListedPlayer {
  id: string;
  name: string;
  age: number | null;
  clubId: string;
  valueEur: number | null;
  contractEnd: string | null;
}

export interface AgeRow {
  age: number;
  /** Listed players of that age with a value. */
  n: number;
  median: number;
  p90: number;
  /** Relative to the peak: the highest median (p90) of three ages in a row, averaged, among ages with enough players. */
  medianRel: number;
  p90Rel: number;
}

export interface LeagueSquads {
  competitionId: string;
  /** Clubs by this season's table, first place first, with the value of the squad each holds now. */
  clubs: { clubId: string; name: string; squadValueEur: number; promoted: boolean }[];
  /** Spearman correlation of table place and squad value (1: the table follows the money). */
  spearman: number;
}

export interface MarketFigures {
  asOf: string;
  listed: number;
  valued: number;
  top100: { ages: number[]; p10: number; median: number; p90: number; aged33Plus: number };
  /** Players aged 33 or more worth €30M or more, most valuable first. */
  old30m: ListedPlayer[];
  /** Listed players whose contract in force ended before the as-of date, most valuable first. */
  contractEnded: ListedPlayer[];
  byAge: AgeRow[];
  /** The middle age of the three in a row with the highest median value. */
  peakAge: number;
  leagues: LeagueSquads[];
  /** Squad value relative to its league's median squad, by table place band (median over leagues). */
  rankBands: { band: string; rel: number; clubs: number }[];
  /** Each promoted club's squad-value rank in its league (1 the most valuable) and the league's size. */
  promoted: { clubId: string; name: string; competitionId: string; valueRank: number; of: number; rel: number }[];
}

/** Linear interpolation between order statistics of an ascending array. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** Ages with fewer valued players than this are shown but set no peak. */
const MIN_AT_AGE = 20;
/** Table places grouped as a football person reads a table. */
const BANDS: readonly (readonly [string, number, number])[] = [['1-4', 1, 4], ['5-8', 5, 8], ['9-12', 9, 12], ['13-16', 13, 16], ['17+', 17, 99]];

/** The scouting list: every player at a club at the as-of date. */
export function listedPlayers(snapshot: Snapshot): ListedPlayer[] {
  const out: ListedPlayer[] = [];
  for (const p of snapshot.players.values()) {
    const f = playerFacts(snapshot, p);
    if (!f.inWorldNow || f.currentTeamId === null) continue;
    out.push({
      id: p.id,
      name: p.name,
      age: f.age,
      clubId: f.currentTeamId,
      valueEur: latestValue(snapshot, p.id)?.value_eur ?? null,
      contractEnd: snapshot.contracts.get(p.id)?.end_date ?? null,
    });
  }
  return out;
}

const byValue = (a: ListedPlayer, b: ListedPlayer): number => (b.valueEur ?? -1) - (a.valueEur ?? -1) || a.id.localeCompare(b.id);

/** Spearman rank correlation (ties broken by position). */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  const rank = (v: readonly number[]) => {
    const order = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    order.forEach(([, i], k) => (r[i] = k));
    return r;
  };
  const rx = rank(xs);
  const ry = rank(ys);
  const n = xs.length;
  const d2 = rx.reduce((s, r, i) => s + (r - ry[i]) ** 2, 0);
  return n > 1 ? 1 - (6 * d2) / (n * (n * n - 1)) : NaN;
}

/** This season's table of a league from its games played by the as-of date: points, goal difference, goals. */
function table(snapshot: Snapshot, competitionId: string, clubs: readonly string[]): string[] {
  const pts = new Map<string, [number, number, number]>(clubs.map((c) => [c, [0, 0, 0]]));
  for (const m of snapshot.matches) {
    if (m.competition_id !== competitionId || m.season !== snapshot.currentSeason || m.date > snapshot.asOf) continue;
    const h = pts.get(m.home_club_id);
    const a = pts.get(m.away_club_id);
    if (!h || !a) continue;
    h[0] += m.home_goals > m.away_goals ? 3 : m.home_goals === m.away_goals ? 1 : 0;
    a[0] += m.away_goals > m.home_goals ? 3 : m.home_goals === m.away_goals ? 1 : 0;
    h[1] += m.home_goals - m.away_goals;
    a[1] += m.away_goals - m.home_goals;
    h[2] += m.home_goals;
    a[2] += m.away_goals;
  }
  const key = (c: string) => pts.get(c) as [number, number, number];
  return [...clubs].sort((x, y) => key(y)[0] - key(x)[0] || key(y)[1] - key(x)[1] || key(y)[2] - key(x)[2] || x.localeCompare(y));
}

function leagueSquads(snapshot: Snapshot, listed: readonly ListedPlayer[]): LeagueSquads[] {
  const squadValue = new Map<string, number>();
  for (const p of listed) squadValue.set(p.clubId, (squadValue.get(p.clubId) ?? 0) + (p.valueEur ?? 0));
  const lastSeason = new Map<string, Set<string>>();
  for (const cs of snapshot.clubSeasons) {
    if (cs.season !== snapshot.currentSeason - 1) continue;
    const set = lastSeason.get(cs.competition_id) ?? new Set<string>();
    set.add(cs.club_id);
    lastSeason.set(cs.competition_id, set);
  }
  const out: LeagueSquads[] = [];
  for (const [competitionId, clubs] of snapshot.clubsOfLeague) {
    const comp = snapshot.competitions.get(competitionId);
    if (comp?.tier !== 1 || clubs.length < 10) continue;
    // Promoted: in the league now, not last season, while the data had the league last season.
    const before = lastSeason.get(competitionId);
    const order = table(snapshot, competitionId, clubs);
    const rows = order.map((clubId) => ({
      clubId,
      name: snapshot.clubs.get(clubId)?.name ?? clubId,
      squadValueEur: squadValue.get(clubId) ?? 0,
      promoted: before !== undefined && before.size >= clubs.length - 4 && !before.has(clubId),
    }));
    out.push({ competitionId, clubs: rows, spearman: spearman(rows.map((_, i) => -i), rows.map((r) => r.squadValueEur)) });
  }
  return out.sort((a, b) => a.competitionId.localeCompare(b.competitionId));
}

export function marketFigures(snapshot: Snapshot): MarketFigures {
  const listed = listedPlayers(snapshot);
  const valued = listed.filter((p) => p.valueEur !== null).sort(byValue);
  const topAges = valued.slice(0, 100).map((p) => p.age ?? NaN).filter((a) => !Number.isNaN(a));
  const sortedAges = [...topAges].sort((a, b) => a - b);

  const atAge = new Map<number, number[]>();
  for (const p of valued) {
    if (p.age === null) continue;
    const list = atAge.get(p.age) ?? [];
    list.push(p.valueEur as number);
    atAge.set(p.age, list);
  }
  const rows = [...atAge].sort((a, b) => a[0] - b[0]).map(([age, vs]) => {
    vs.sort((a, b) => a - b);
    return { age, n: vs.length, median: quantile(vs, 0.5), p90: quantile(vs, 0.9) };
  });
  // The peak over three ages in a row, so that one age's luck in a few hundred players sets no scale.
  const dense = new Map(rows.filter((r) => r.n >= MIN_AT_AGE).map((r) => [r.age, r]));
  let peak = { age: NaN, median: 0, p90: 0 };
  for (const r of dense.values()) {
    const run = [dense.get(r.age - 1), r, dense.get(r.age + 1)];
    if (run.some((x) => x === undefined)) continue;
    const median = run.reduce((sum, x) => sum + (x as { median: number }).median, 0) / 3;
    const p90 = run.reduce((sum, x) => sum + (x as { p90: number }).p90, 0) / 3;
    peak = { age: median > peak.median ? r.age : peak.age, median: Math.max(median, peak.median), p90: Math.max(p90, peak.p90) };
  }
  const byAge = rows.map((r) => ({ ...r, medianRel: r.median / peak.median, p90Rel: r.p90 / peak.p90 }));

  const leagues = leagueSquads(snapshot, listed);
  const rankBands = BANDS.map(([band, lo, hi]) => {
    const rels: number[] = [];
    for (const l of leagues) {
      const med = quantile(l.clubs.map((c) => c.squadValueEur).sort((a, b) => a - b), 0.5);
      l.clubs.forEach((c, i) => {
        if (i + 1 >= lo && i + 1 <= hi) rels.push(c.squadValueEur / med);
      });
    }
    rels.sort((a, b) => a - b);
    return { band, rel: quantile(rels, 0.5), clubs: rels.length };
  }).filter((b) => b.clubs > 0);
  const promoted = leagues.flatMap((l) => {
    const values = l.clubs.map((c) => c.squadValueEur).sort((a, b) => b - a);
    const med = quantile([...values].reverse(), 0.5);
    return l.clubs.filter((c) => c.promoted).map((c) => ({
      clubId: c.clubId, name: c.name, competitionId: l.competitionId, valueRank: values.indexOf(c.squadValueEur) + 1, of: values.length, rel: c.squadValueEur / med,
    }));
  });

  return {
    asOf: snapshot.asOf,
    listed: listed.length,
    valued: valued.length,
    top100: { ages: topAges, p10: quantile(sortedAges, 0.1), median: quantile(sortedAges, 0.5), p90: quantile(sortedAges, 0.9), aged33Plus: topAges.filter((a) => a >= 33).length },
    old30m: valued.filter((p) => (p.age ?? 0) >= 33 && (p.valueEur as number) >= 30e6),
    contractEnded: listed.filter((p) => p.contractEnd !== null && p.contractEnd < snapshot.asOf).sort(byValue),
    byAge,
    peakAge: peak.age,
    leagues,
    rankBands,
    promoted,
  };
}

/**
 * How far one value-by-age shape lies from another: the mean absolute log2 ratio of the relative
 * median and of the relative p90 over the ages `from`..`to` (1 = a factor of two on average). Ages
 * where either side has fewer than 10 valued players (or no count) are left out: their p90 is luck.
 */
export function shapeDistance(a: readonly ShapeRow[], b: readonly ShapeRow[], from = 18, to = 36): { median: number; p90: number } {
  const log = (x: number) => Math.log2(Math.max(0.01, x));
  let median = 0;
  let p90 = 0;
  let n = 0;
  for (let age = from; age <= to; age++) {
    const x = a.find((r) => r.age === age);
    const y = b.find((r) => r.age === age);
    if (!x || !y || (x.n ?? 10) < 10 || (y.n ?? 10) < 10) continue;
    median += Math.abs(log(x.medianRel) - log(y.medianRel));
    p90 += Math.abs(log(x.p90Rel) - log(y.p90Rel));
    n++;
  }
  return { median: median / n, p90: p90 / n };
}

/** One age of a value-by-age shape; `n` (players) where known. */
export type ShapeRow = Pick<AgeRow, 'age' | 'medianRel' | 'p90Rel'> & { n?: number };

/** Age bands of the value three years on. */
const ON_BANDS: readonly (readonly [string, number, number])[] = [['18-20', 18, 20], ['21-23', 21, 23], ['24-26', 24, 26], ['27-29', 27, 29], ['30-32', 30, 32], ['33+', 33, 99]];

/**
 * What the market did to a player's value over three years, as the future-value model learns it:
 * for every value dated three years or more before the as-of date, the value closest to three years
 * later (within six months) over it, by his age at the first; the median and the share that fell by
 * half or more. Players with no value three years on (retired, lost) are left out, in both worlds.
 */
export function valueThreeYearsOn(snapshot: Snapshot): { band: string; n: number; median: number; halved: number }[] {
  const DAY = 86_400_000;
  const ratios = new Map<string, number[]>(ON_BANDS.map(([b]) => [b, []]));
  const last = Date.parse(snapshot.asOf) - 3 * 365.25 * DAY;
  for (const [playerId, rows] of snapshot.values) {
    const birth = snapshot.players.get(playerId)?.birth_date;
    if (!birth) continue;
    const times = rows.map((r) => Date.parse(r.date));
    let j = 0;
    for (let i = 0; i < rows.length && times[i] <= last; i++) {
      const target = times[i] + 3 * 365.25 * DAY;
      while (j + 1 < rows.length && Math.abs(times[j + 1] - target) <= Math.abs(times[j] - target)) j++;
      if (Math.abs(times[j] - target) > 182 * DAY || rows[i].value_eur <= 0) continue;
      const age = Math.floor((times[i] - Date.parse(birth)) / (365.2425 * DAY));
      const band = ON_BANDS.find(([, lo, hi]) => age >= lo && age <= hi);
      if (band) ratios.get(band[0])?.push(rows[j].value_eur / rows[i].value_eur);
    }
  }
  return ON_BANDS.map(([band]) => {
    const r = (ratios.get(band) ?? []).sort((a, b) => a - b);
    return { band, n: r.length, median: quantile(r, 0.5), halved: r.filter((x) => x <= 0.5).length / Math.max(1, r.length) };
  });
}
