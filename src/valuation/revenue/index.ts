/**
 * Money per final league place: one JSON file per league under data/ (merit and prize money,
 * the value of the European place it leads to, the cost of relegation and the value of
 * promotion, with sources and dates; most figures are marked as estimates and say how they were
 * derived). The money of a place is merit + europe + promotion - relegation, in EUR per season.
 *
 * A league without a file gets the documented fallback (`fallbackRevenueTable`): a generic
 * small-league curve scaled by how rich the league is (the total market value of its clubs
 * against the median of the leagues that have files).
 */
import PREMIER_LEAGUE from './data/PREMIER_LEAGUE.json' with { type: 'json' };
import LALIGA from './data/LALIGA.json' with { type: 'json' };
import BUNDESLIGA from './data/BUNDESLIGA.json' with { type: 'json' };
import SERIE_A from './data/SERIE_A.json' with { type: 'json' };
import LIGUE_1 from './data/LIGUE_1.json' with { type: 'json' };
import EREDIVISIE from './data/EREDIVISIE.json' with { type: 'json' };
import LIGA_PORTUGAL_BWIN from './data/LIGA_PORTUGAL_BWIN.json' with { type: 'json' };
import JUPILER_PRO_LEAGUE from './data/JUPILER_PRO_LEAGUE.json' with { type: 'json' };
import SUPER_LIG from './data/SUPER_LIG.json' with { type: 'json' };
import SCOTTISH_PREMIERSHIP from './data/SCOTTISH_PREMIERSHIP.json' with { type: 'json' };
import SUPER_LEAGUE_1 from './data/SUPER_LEAGUE_1.json' with { type: 'json' };
import SUPERLIGAEN from './data/SUPERLIGAEN.json' with { type: 'json' };
import PREMIER_LIGA_UKRAINE from './data/PREMIER_LIGA_UKRAINE.json' with { type: 'json' };
import PREMIER_LIGA_RUSSIA from './data/PREMIER_LIGA_RUSSIA.json' with { type: 'json' };
import PREMIER_DIVISION from './data/PREMIER_DIVISION.json' with { type: 'json' };
import FIRST_DIVISION from './data/FIRST_DIVISION.json' with { type: 'json' };
import PRIMERA_LIGA from './data/PRIMERA_LIGA.json' with { type: 'json' };
import ERSTE_LIGA from './data/ERSTE_LIGA.json' with { type: 'json' };
import SERIE_NAZIONALE from './data/SERIE_NAZIONALE.json' with { type: 'json' };
import DIVISION_ELITE from './data/DIVISION_ELITE.json' with { type: 'json' };

export interface RevenuePlace {
  place: number;
  merit_eur: number;
  /** competition the place leads to, or null */
  europe: string | null;
  europe_eur: number;
  relegation_eur: number;
  promotion_eur: number;
}

export interface RevenueTable {
  league: string;
  currency: 'EUR';
  name: string;
  country: string | null;
  season: string;
  as_of: string;
  clubs: number;
  /** true: every figure is our estimate; 'partial': some are published; false: all published */
  estimate: boolean | 'partial';
  demo?: boolean;
  /** how a table without a file was made (only on fallback tables) */
  fallback?: { rule: string; valueRatio: number };
  source: string[];
  method: string;
  places: RevenuePlace[];
}

function validated(raw: unknown): RevenueTable {
  const t = raw as RevenueTable;
  if (t.currency !== 'EUR' || !Array.isArray(t.places) || t.places.length !== t.clubs) {
    throw new Error(`revenue table ${t.league}: bad shape`);
  }
  t.places.forEach((p, i) => {
    if (p.place !== i + 1) throw new Error(`revenue table ${t.league}: places out of order`);
    for (const v of [p.merit_eur, p.europe_eur, p.relegation_eur, p.promotion_eur]) {
      if (!Number.isFinite(v) || v < 0) throw new Error(`revenue table ${t.league}: bad amount at place ${p.place}`);
    }
  });
  if (!t.source?.length || !t.as_of) throw new Error(`revenue table ${t.league}: source and as_of are required`);
  return t;
}

export const REVENUE_TABLES: ReadonlyMap<string, RevenueTable> = new Map(
  [
    PREMIER_LEAGUE, LALIGA, BUNDESLIGA, SERIE_A, LIGUE_1, EREDIVISIE, LIGA_PORTUGAL_BWIN, JUPILER_PRO_LEAGUE, SUPER_LIG,
    SCOTTISH_PREMIERSHIP, SUPER_LEAGUE_1, SUPERLIGAEN, PREMIER_LIGA_UKRAINE, PREMIER_LIGA_RUSSIA,
    PREMIER_DIVISION, FIRST_DIVISION, PRIMERA_LIGA, ERSTE_LIGA, SERIE_NAZIONALE, DIVISION_ELITE,
  ].map((raw) => {
    const t = validated(raw);
    return [t.league, t] as const;
  }),
);

/** Money of each place, index 0 = first place. */
export function placeMoney(table: RevenueTable): number[] {
  return table.places.map((p) => p.merit_eur + p.europe_eur + p.promotion_eur - p.relegation_eur);
}

/**
 * Money of each place for a league of `clubs` clubs. When the size differs from the table's
 * (a league that grew or shrank), place p is read at the same relative height, linearly
 * between the table's neighbouring places.
 */
export function placeMoneyFor(table: RevenueTable, clubs: number): number[] {
  const money = placeMoney(table);
  const m = money.length;
  if (clubs === m) return money;
  if (!(Number.isInteger(clubs) && clubs >= 1)) throw new Error('clubs must be a positive integer');
  return Array.from({ length: clubs }, (_, i) => {
    const x = clubs === 1 ? 0 : (i * (m - 1)) / (clubs - 1);
    const lo = Math.floor(x), hi = Math.min(m - 1, lo + 1);
    return money[lo] + (x - lo) * (money[hi] - money[lo]);
  });
}

/**
 * Expected money of a season from the distribution of final places (index 0 = first; it is
 * normalised, so frequencies work too). The distribution's length is the league size.
 */
export function expectedRevenueEur(table: RevenueTable, rankDistribution: readonly number[]): number {
  const money = placeMoneyFor(table, rankDistribution.length);
  let total = 0, mass = 0;
  for (let i = 0; i < rankDistribution.length; i++) {
    const p = rankDistribution[i];
    if (!(p >= 0)) throw new Error('rank probabilities must be >= 0');
    total += p * money[i];
    mass += p;
  }
  if (!(mass > 0)) throw new Error('rank distribution is empty');
  return total / mass;
}

/** Generic shape of a league without a file (EUR, for a league of median wealth among those with files). */
const FALLBACK = { meritTop: 2e6, meritBottom: 0.2e6, champion: 15e6, runnerUp: 3e6, relegation: 1.5e6 };

/**
 * The documented rule for a league without a file: merit linear from EUR 2m (1st) to EUR 0.2m
 * (last), a Champions League qualifying place for the champion (EUR 15m), a Conference League
 * qualifying place for the runner-up (EUR 3m) and EUR 1.5m lost by the last club, all multiplied by
 * `valueRatio` = the league's total club market value / the median total of the leagues with files
 * (clamped to 0.1-5; 1 when unknown). The shape is the median small league of our files.
 */
export function fallbackRevenueTable(league: string, clubs: number, valueRatio: number | null): RevenueTable {
  if (!(Number.isInteger(clubs) && clubs >= 2)) throw new Error('clubs must be an integer >= 2');
  const k = valueRatio !== null && Number.isFinite(valueRatio) && valueRatio > 0 ? Math.min(5, Math.max(0.1, valueRatio)) : 1;
  const places: RevenuePlace[] = Array.from({ length: clubs }, (_, i) => ({
    place: i + 1,
    merit_eur: Math.round(k * (FALLBACK.meritTop + ((FALLBACK.meritBottom - FALLBACK.meritTop) * i) / (clubs - 1))),
    europe: i === 0 ? 'UCL_QUALIFYING' : i === 1 ? 'UECL_QUALIFYING' : null,
    europe_eur: Math.round(k * (i === 0 ? FALLBACK.champion : i === 1 ? FALLBACK.runnerUp : 0)),
    relegation_eur: i === clubs - 1 ? Math.round(k * FALLBACK.relegation) : 0,
    promotion_eur: 0,
  }));
  return {
    league,
    currency: 'EUR',
    name: league,
    country: null,
    season: '2023/2024',
    as_of: '2024-06-30',
    clubs,
    estimate: true,
    fallback: { rule: 'generic small-league curve scaled by the league\'s total club market value against the median of the leagues with files', valueRatio: k },
    source: ['fallback rule of src/valuation/revenue (no file for this league)'],
    method: 'See fallbackRevenueTable.',
    places,
  };
}

/** The league's table, or the fallback when there is no file. */
export function revenueTableFor(league: string, clubs: number, valueRatio: number | null = null): RevenueTable {
  return REVENUE_TABLES.get(league) ?? fallbackRevenueTable(league, clubs, valueRatio);
}
