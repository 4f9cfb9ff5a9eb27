/**
 * Sportive impact of a player at a club, squad what-ifs and ROI.
 *
 * Sportive impact: the club's league is its current-season league; each season of the horizon
 * (the analysis season and the two after it) is a double round robin of that league with every
 * player's rating moved along the age curve. The club's squad without the player ("original")
 * and with him ("new") are simulated on common random numbers; if he plays for another club of
 * the same league, that club loses him in the "with" run. Reported positions are the means over
 * the 3 seasons, each with a standard error <= the target (per season the target is scaled by
 * sqrt(3), so the mean's standard error is within it). Money: the expected revenue of the place
 * distribution with minus without, summed over the 3 seasons (no discounting), floored at 0.
 *
 * Random numbers: the seed of a season is a hash of (data version, league, club, season), not of
 * the player, so every signing evaluated for one club runs on the same random numbers and shows
 * the same "original" position; the run count is set by the "without" scenario (see engine.ts).
 *
 * Squad strength comes from match days (model.ts, `matchDays`): the player adds to it only on the
 * days he starts, and his playing time is his start share on the analysis season's match days, so
 * the two cannot disagree. Each player's match days come from his own random stream: the squads
 * with and without him share everybody else's days.
 *
 * A signing never weakens a squad (the club could field the squad without him), so the "with"
 * strength is floored at the "without" strength, and a club losing the player is capped at its
 * baseline; this guards against the rare case where his arrival changes the formation.
 */
import type { Snapshot } from '../../domain/snapshot.js';
import { playerFacts } from '../../domain/player-facts.js';
import { isPositionCode, type PositionCode } from '../../domain/positions.js';
import { hashString } from '../../domain/hash.js';
import type { SquadFeatures } from '../league/squad.js';
import { expectedRevenueEur, REVENUE_TABLES, revenueTableFor, type RevenueTable } from '../revenue/index.js';
import { simulateScenarios } from './scenarios.js';
import { simulateTable, type TableResult } from './table.js';
import { ImpactError } from './errors.js';
import {
  featuresOf, matchDays, matchDaysWith, warmMatchDays, HORIZON_SEASONS, leagueContext, leagueMatchModel, ratedPlayer, squadAt,
  type ImpactArtifact, type LeagueTieContext, type RatedPlayer,
} from './model.js';
import { baselineFeatures, clubSquad, clubStrength, completeSquad, isStandIn } from './club-squad.js';
import { memoTable } from '../../domain/memo.js';
import { featureIndex, latestValue } from '../features/index.js';

export interface SeasonImpact {
  season: number;
  originalExpectedPosition: number;
  newExpectedPosition: number;
  originalStandardError: number;
  newStandardError: number;
  originalRevenueEur: number;
  newRevenueEur: number;
  runs: number;
}

export interface SportiveImpact {
  leagueId: string;
  clubs: number;
  /** mean over the 3 seasons, without the player; 1 is best */
  originalExpectedPosition: number;
  /** mean over the 3 seasons, with the player */
  newExpectedPosition: number;
  /** original - new, floored at 0 */
  increaseInExpectedPosition: number;
  /** standard errors of the two means */
  originalStandardError: number;
  newStandardError: number;
  /** expected share of the club's matches he would start, 0 to 0.9 */
  playingTimePercentage: number;
  /** extra expected revenue with him over the 3 seasons, EUR, floored at 0 */
  onFieldValueEur: number;
  revenueTable: { league: string; fallback: boolean; estimate: RevenueTable['estimate'] };
  seasons: SeasonImpact[];
}

export interface ImpactRunSettings {
  /** overrides the artifact's targetStandardError */
  targetStandardError?: number;
  /** fixed Monte Carlo runs per season (tests, benches) */
  runs?: number;
}

const SQRT_HORIZON = Math.sqrt(HORIZON_SEASONS);

/** Seed of one club-season simulation: same inputs, same numbers. */
export function simulationSeed(dataVersion: string, league: string, clubId: string, season: number): number {
  return hashString(`${dataVersion}|${league}|${clubId}|${season}`) | 0;
}

export interface LeagueSetup {
  league: string;
  clubs: readonly string[];
  ctx: LeagueTieContext;
}

/** The club's league in the analysis season, with its tie context. Throws ImpactError (unknown club, no league). */
export function leagueOf(artifact: ImpactArtifact, snapshot: Snapshot, clubId: string): LeagueSetup {
  if (!snapshot.clubs.has(clubId)) throw new ImpactError('unknown_club', `Club ${clubId} not found`);
  // The analysis season's membership: the operator's when set, else the current season's.
  const league = snapshot.analysisLeagueOfClub.get(clubId);
  const clubs = league ? snapshot.analysisClubsOfLeague.get(league) : undefined;
  if (!league || !clubs || clubs.length < 2) {
    throw new ImpactError('club_without_league', `Club ${clubId} plays in no domestic league in the analysis season`);
  }
  const ctx = leagueContext(artifact, league, clubs.map((c) => baselineFeatures(artifact, snapshot, c, 0)));
  return { league, clubs, ctx };
}

function requirePlayer(snapshot: Snapshot, artifact: ImpactArtifact, playerId: string, position?: PositionCode, index: number | null = null): RatedPlayer {
  if (!snapshot.players.has(playerId)) throw new ImpactError('unknown_player', `Player ${playerId} not found`, index);
  const p = ratedPlayer(snapshot, playerId, artifact.settings, position);
  if (!p) throw new ImpactError('player_not_rated', `Player ${playerId} has no recent rating`, index);
  return p;
}

/** Share of the value of the league's clubs against the median league with a revenue file (the fallback rule's scale). */
export function leagueValueRatio(snapshot: Snapshot, league: string, withFiles: readonly string[]): number | null {
  const idx = featureIndex(snapshot);
  const total = (l: string): number => {
    let s = 0;
    for (const club of snapshot.analysisClubsOfLeague.get(l) ?? []) {
      for (const p of snapshot.squads.get(club) ?? []) s += latestValue(idx, p, snapshot.asOf)?.valueEur ?? 0;
    }
    return s;
  };
  const ref = withFiles.filter((l) => snapshot.analysisClubsOfLeague.has(l)).map(total).filter((v) => v > 0).sort((a, b) => a - b);
  const own = total(league);
  if (ref.length === 0 || !(own > 0)) return null;
  return own / ref[ref.length >> 1];
}

// the fallback's scale reads every squad's values: once per snapshot and league

/** The league's revenue table, or the fallback scaled by the league's club values. */
export function revenueTableOf(snapshot: Snapshot, league: string, clubs: number): RevenueTable {
  if (REVENUE_TABLES.has(league)) return revenueTableFor(league, clubs);
  const m = memoTable<number | null>(snapshot, 'impact.league-value-ratio');
  if (!m.has(league)) m.set(league, leagueValueRatio(snapshot, league, [...REVENUE_TABLES.keys()]));
  return revenueTableFor(league, clubs, m.get(league)!);
}

function maxStrength(a: { attack: number; defence: number }, b: { attack: number; defence: number }) {
  return { attack: Math.max(a.attack, b.attack), defence: Math.max(a.defence, b.defence) };
}
function minStrength(a: { attack: number; defence: number }, b: { attack: number; defence: number }) {
  return { attack: Math.min(a.attack, b.attack), defence: Math.min(a.defence, b.defence) };
}

/** Sportive impact of `playerId` joining `clubId` (see the header). Throws ImpactError. */
export function sportiveImpact(
  artifact: ImpactArtifact,
  snapshot: Snapshot,
  input: { playerId: string; clubId: string },
  settings: ImpactRunSettings = {},
): SportiveImpact {
  const setup = leagueOf(artifact, snapshot, input.clubId);
  const player = requirePlayer(snapshot, artifact, input.playerId);
  const facts = playerFacts(snapshot, snapshot.players.get(input.playerId)!);
  const atClub = (snapshot.squads.get(input.clubId) ?? []).includes(input.playerId);
  const formerClub = !atClub && facts.currentTeamId && facts.currentTeamId !== input.clubId && setup.clubs.includes(facts.currentTeamId)
    ? facts.currentTeamId : null;

  const curve = artifact.ageCurve;
  const rs = artifact.settings;
  const without = clubSquad(artifact, snapshot, input.clubId).filter((p) => p.playerId !== input.playerId);
  const withSquad = [...without, player];
  const formerWithout = formerClub ? clubSquad(artifact, snapshot, formerClub).filter((p) => p.playerId !== input.playerId) : null;
  const table = revenueTableOf(snapshot, setup.league, setup.clubs.length);
  const target = (settings.targetStandardError ?? rs.targetStandardError) * SQRT_HORIZON;

  const seasons: SeasonImpact[] = [];
  let shares: Record<string, number> = {};
  for (let k = 0; k < HORIZON_SEASONS; k++) {
    const season = snapshot.analysisSeason + k;
    const base = { attack: [] as number[], defence: [] as number[] };
    const changed = { attack: [] as number[], defence: [] as number[] };
    for (const club of setup.clubs) {
      let b: { attack: number; defence: number };
      let c: { attack: number; defence: number };
      if (club === input.clubId) {
        // the squad without him: on the same match days when he is at the club; else the club's
        // actual squad, whose features the artifact keeps
        // a newcomer: the squad's match days are kept, only the days he may change are solved again
        const days = atClub
          ? matchDays(squadAt(curve, withSquad, season), rs, k, input.playerId)
          : matchDaysWith(squadAt(curve, without, season), squadAt(curve, [player], season)[0], rs, k);
        const withoutFeatures = days.withoutFeatures ?? baselineFeatures(artifact, snapshot, club, k);
        // playing time: his start share on the analysis season's match days, the very days his strength comes from
        if (k === 0) shares = days.startShares;
        b = clubStrength(artifact, snapshot, setup.ctx, club, withoutFeatures);
        c = maxStrength(clubStrength(artifact, snapshot, setup.ctx, club, days.features), b);
      } else {
        b = clubStrength(artifact, snapshot, setup.ctx, club, baselineFeatures(artifact, snapshot, club, k));
        c = club === formerClub
          ? minStrength(clubStrength(artifact, snapshot, setup.ctx, club, featuresOf(squadAt(curve, formerWithout!, season), rs, k)), b)
          : b;
      }
      base.attack.push(b.attack); base.defence.push(b.defence);
      changed.attack.push(c.attack); changed.defence.push(c.defence);
    }
    const sim = simulateScenarios(
      {
        clubIds: setup.clubs, ...leagueMatchModel(artifact, setup.league),
        target: input.clubId, scenarios: [base, changed],
      },
      { seed: simulationSeed(snapshot.dataVersion, setup.league, input.clubId, season), targetStandardError: target, runsFrom: 0, maxRuns: rs.maxRuns, runs: settings.runs },
    );
    const [o, n] = sim.outcomes;
    seasons.push({
      season,
      originalExpectedPosition: o.expectedPosition,
      newExpectedPosition: n.expectedPosition,
      originalStandardError: o.standardError,
      newStandardError: n.standardError,
      originalRevenueEur: expectedRevenueEur(table, o.positionProbabilities),
      newRevenueEur: expectedRevenueEur(table, n.positionProbabilities),
      runs: sim.runs,
    });
  }

  const mean = (f: (s: SeasonImpact) => number) => seasons.reduce((a, s) => a + f(s), 0) / seasons.length;
  const meanSe = (f: (s: SeasonImpact) => number) => Math.sqrt(seasons.reduce((a, s) => a + f(s) ** 2, 0)) / seasons.length;
  const original = mean((s) => s.originalExpectedPosition);
  const next = mean((s) => s.newExpectedPosition);
  const extra = seasons.reduce((a, s) => a + s.newRevenueEur - s.originalRevenueEur, 0);

  const playingTime = Math.min(0.9, Math.max(0, shares[input.playerId] ?? 0));

  return {
    leagueId: setup.league,
    clubs: setup.clubs.length,
    originalExpectedPosition: original,
    newExpectedPosition: next,
    increaseInExpectedPosition: Math.max(0, original - next),
    originalStandardError: meanSe((s) => s.originalStandardError),
    newStandardError: meanSe((s) => s.newStandardError),
    playingTimePercentage: Math.round(playingTime * 10_000) / 10_000,
    onFieldValueEur: Math.max(0, Math.round(extra)),
    revenueTable: { league: table.league, fallback: table.fallback !== undefined, estimate: table.estimate },
    seasons,
  };
}

/**
 * Builds what every signing evaluated for `clubId` shares, so its first analysis costs what later
 * ones do: each season's baseline runs (scenarios.ts keeps them) and the squad's match days
 * (league/match-days.ts). The same inputs as sportiveImpact's for a newcomer, so its lookups hit.
 * Throws ImpactError as sportiveImpact does (a club without a league).
 */
export function warmClub(artifact: ImpactArtifact, snapshot: Snapshot, clubId: string): void {
  const setup = leagueOf(artifact, snapshot, clubId);
  const rs = artifact.settings;
  const squad = clubSquad(artifact, snapshot, clubId);
  for (let k = 0; k < HORIZON_SEASONS; k++) {
    const season = snapshot.analysisSeason + k;
    warmMatchDays(squadAt(artifact.ageCurve, squad, season), rs, k);
    const base = { attack: [] as number[], defence: [] as number[] };
    for (const club of setup.clubs) {
      const b = clubStrength(artifact, snapshot, setup.ctx, club, baselineFeatures(artifact, snapshot, club, k));
      base.attack.push(b.attack); base.defence.push(b.defence);
    }
    simulateScenarios(
      { clubIds: setup.clubs, ...leagueMatchModel(artifact, setup.league), target: clubId, scenarios: [base] },
      { seed: simulationSeed(snapshot.dataVersion, setup.league, clubId, season), targetStandardError: rs.targetStandardError * SQRT_HORIZON, runsFrom: 0, maxRuns: rs.maxRuns },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// squad analysis

export interface SquadEntryInput {
  playerId: string;
  position: string;
}

export interface SquadEntryUsed {
  playerId: string;
  name: string;
  position: PositionCode;
}

export interface SquadAnalysis {
  clubId: string;
  leagueId: string;
  season: number;
  /** expected final place in the analysis season, 2 decimals, 1 is best */
  expectedLeagueRank: number;
  standardError: number;
  /** probability of each final place, index 0 = first (the league forecast shows them) */
  positionProbabilities: number[];
  squad: SquadEntryUsed[];
  squadSource: 'actual' | 'custom';
  runs: number;
}

/**
 * Expected league rank of the club in the analysis season with its actual squad (rated players
 * at their current positions) or a custom one (players at the positions given; a player taken
 * from another club of the same league is removed from that club). Ratings are moved one season
 * along the age curve, as in the first season of sportive impact. Both are one simulation of the
 * whole league on the league's seed (`tableSeed`): the actual squad reads the league's cached table
 * (the one the league forecast shows), and a custom squad equal to the actual one gives the very
 * same simulation, so the echo sent back answers the same rank.
 */
export function squadAnalysis(
  artifact: ImpactArtifact,
  snapshot: Snapshot,
  input: { clubId: string; squad?: readonly SquadEntryInput[] | null },
  settings: ImpactRunSettings = {},
): SquadAnalysis {
  const setup = leagueOf(artifact, snapshot, input.clubId);
  const rs = artifact.settings;
  let squad: RatedPlayer[];
  const custom = input.squad !== undefined && input.squad !== null;
  if (custom) {
    squad = [];
    const seen = new Set<string>();
    input.squad!.forEach((e, i) => {
      if (!e || typeof e.playerId !== 'string' || !isPositionCode(e.position) || seen.has(e.playerId)) {
        throw new ImpactError('invalid_squad_entry', `Invalid squad entry at index ${i}`, i);
      }
      seen.add(e.playerId);
      squad.push(requirePlayer(snapshot, artifact, e.playerId, e.position, i));
    });
    // a newly named club's squad is completed as its actual one is, so the echo sent back answers the same
    squad = completeSquad(artifact, snapshot, input.clubId, squad);
  } else {
    squad = clubSquad(artifact, snapshot, input.clubId);
  }
  const season = snapshot.analysisSeason;
  const curve = artifact.ageCurve;
  let table: LeagueTable;
  if (custom) {
    const inSquad = new Set(squad.map((p) => p.playerId));
    const strengths = { attack: [] as number[], defence: [] as number[] };
    for (const club of setup.clubs) {
      let f: SquadFeatures;
      if (club === input.clubId) f = featuresOf(squadAt(curve, squad, season), rs, 0);
      else {
        const own = snapshot.squads.get(club) ?? [];
        f = own.some((id) => inSquad.has(id))
          ? featuresOf(squadAt(curve, clubSquad(artifact, snapshot, club).filter((p) => !inSquad.has(p.playerId)), season), rs, 0)
          : baselineFeatures(artifact, snapshot, club, 0);
      }
      const s = clubStrength(artifact, snapshot, setup.ctx, club, f);
      strengths.attack.push(s.attack);
      strengths.defence.push(s.defence);
    }
    table = simulateLeagueTable(artifact, snapshot, setup, strengths, settings);
  } else {
    table = actualLeagueTable(artifact, snapshot, setup.league, settings);
  }
  const o = table.result.clubs[setup.clubs.indexOf(input.clubId)];
  return {
    clubId: input.clubId,
    leagueId: setup.league,
    season,
    expectedLeagueRank: Math.round(o.expectedPosition * 100) / 100,
    standardError: o.standardError,
    positionProbabilities: o.positionProbabilities,
    squad: squad.filter((p) => !isStandIn(p.playerId)).map((p) => ({ playerId: p.playerId, name: snapshot.players.get(p.playerId)?.name ?? '', position: p.position })),
    squadSource: custom ? 'custom' : 'actual',
    runs: table.result.runs,
  };
}

// ---------------------------------------------------------------------------------------------
// the league's table in the analysis season

/** Seed of a league's table in one season: every club of the league reads the same simulation. */
export function tableSeed(dataVersion: string, league: string, season: number): number {
  return hashString(`table|${dataVersion}|${league}|${season}`) | 0;
}

export interface LeagueTable {
  league: string;
  season: number;
  /** in the league's order (snapshot.analysisClubsOfLeague) */
  clubs: readonly string[];
  attack: number[];
  defence: number[];
  result: TableResult;
}

function simulateLeagueTable(
  artifact: ImpactArtifact,
  snapshot: Snapshot,
  setup: LeagueSetup,
  strengths: { attack: number[]; defence: number[] },
  settings: ImpactRunSettings,
): LeagueTable {
  const season = snapshot.analysisSeason;
  const result = simulateTable(
    {
      clubIds: setup.clubs, ...leagueMatchModel(artifact, setup.league),
      attack: strengths.attack, defence: strengths.defence,
    },
    {
      seed: tableSeed(snapshot.dataVersion, setup.league, season),
      targetStandardError: settings.targetStandardError ?? artifact.settings.targetStandardError,
      maxRuns: artifact.settings.maxRuns,
      runs: settings.runs,
    },
  );
  return { league: setup.league, season, clubs: setup.clubs, attack: strengths.attack, defence: strengths.defence, result };
}

// The snapshot carries the data, ratings and membership versions: a new one (after `leagues
// set-clubs`, a data or ratings change) gets new tables; a new model is a new artifact.

/**
 * The analysis season of `league` with every club's actual squad: one simulation for the whole
 * league, shared by the league forecast and every actual-squad analysis of its clubs, computed
 * once per model, snapshot and league (with default run settings).
 */
export function actualLeagueTable(artifact: ImpactArtifact, snapshot: Snapshot, league: string, settings: ImpactRunSettings = {}): LeagueTable {
  const { clubs, ctx, attack, defence } = leagueStrengths(artifact, snapshot, league);
  const cacheable = settings.runs === undefined && settings.targetStandardError === undefined;
  const byLeague = memoTable<LeagueTable>([artifact, snapshot], 'impact.league-table');
  const hit = cacheable ? byLeague.get(league) : undefined;
  if (hit) return hit;
  const table = simulateLeagueTable(artifact, snapshot, { league, clubs, ctx }, { attack: [...attack], defence: [...defence] }, settings);
  if (cacheable) byLeague.set(league, table);
  return table;
}

export interface LeagueStrengths {
  league: string;
  /** in the league's order (snapshot.analysisClubsOfLeague) */
  clubs: readonly string[];
  ctx: ReturnType<typeof leagueContext>;
  attack: readonly number[];
  defence: readonly number[];
}

/**
 * Every club's attack and defence in the analysis season with its actual squad: what the league
 * simulation plays and the match model (league/match.ts) reads; once per model, snapshot and league.
 */
export function leagueStrengths(artifact: ImpactArtifact, snapshot: Snapshot, league: string): LeagueStrengths {
  const clubs = snapshot.analysisClubsOfLeague.get(league) ?? [];
  if (clubs.length < 2) throw new ImpactError('club_without_league', `League ${league} has fewer than two clubs in the analysis season`);
  const byLeague = memoTable<LeagueStrengths>([artifact, snapshot], 'impact.league-strengths');
  let found = byLeague.get(league);
  if (!found) {
    const ctx = leagueContext(artifact, league, clubs.map((c) => baselineFeatures(artifact, snapshot, c, 0)));
    const attack: number[] = [], defence: number[] = [];
    for (const club of clubs) {
      const s = clubStrength(artifact, snapshot, ctx, club, baselineFeatures(artifact, snapshot, club, 0));
      attack.push(s.attack);
      defence.push(s.defence);
    }
    byLeague.set(league, (found = { league, clubs, ctx, attack, defence }));
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// ROI

/** total value created / (fee + 3 x annual wage); null when the cost is 0 (wage null counts as 0). */
export function roiOf(totalValueCreatedEur: number, feeEur: number, annualWageEur: number | null): number | null {
  const cost = feeEur + 3 * (annualWageEur ?? 0);
  if (cost === 0) return null;
  return totalValueCreatedEur / cost;
}
