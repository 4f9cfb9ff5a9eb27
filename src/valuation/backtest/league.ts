/**
 * The league backtest: each held-back season's final table of every league, against the league
 * forecast made on the 30 June before it (the simulation of the impact model fitted at that origin,
 * the API's /league_forecast), beside Elo (clubs ranked by their rating at the season's start) and
 * last season's table (new clubs at the bottom, by name). Mean absolute rank error and Spearman per
 * season and pooled; clubs new to their league (promoted) apart, beside the naive prior of placing
 * each at the mean finish of its league's promoted clubs in the seasons finished by the origin.
 */
import { seasonLabel } from '../../domain/season.js';
import type { MatchRow } from '../../domain/world.js';
import type { ImpactArtifact } from '../impact/index.js';
import { eloAtSeasonStarts } from '../league/elo-poisson.js';
import { leagueForecast } from '../league/forecast.js';
import { fitPromotedPrior, promotedLevel, seasonTable } from '../league/promoted.js';
import { spearman } from '../ml/metrics.js';
import type { LeagueCard, RankMetrics } from './card.js';
import { strengthRows } from './match.js';
import { leagueMatchesOf, type BacktestWorld, type OriginFit } from './origins.js';

type Method = 'model' | 'elo' | 'last_season';
const METHODS: Method[] = ['model', 'elo', 'last_season'];

interface Ranked {
  actual: number[];
  predicted: Record<Method, number[]>;
  promoted: boolean[];
  prior: number[];
  /** one league's clubs share these indexes */
  groups: number[];
}

/** Ranks 1..n of `clubs` by `score`, lowest first, ties by club id. */
function rankBy(clubs: readonly string[], score: (c: string) => number): number[] {
  const order = clubs.map((c, i) => ({ c, i, s: score(c) })).sort((a, b) => a.s - b.s || (a.c < b.c ? -1 : 1));
  const ranks = new Array<number>(clubs.length);
  order.forEach((o, k) => (ranks[o.i] = k + 1));
  return ranks;
}

function metrics(r: Ranked, method: Method | 'prior', pick?: (i: number) => boolean): RankMetrics {
  const idx = r.actual.map((_, i) => i).filter((i) => !pick || pick(i));
  const pred = method === 'prior' ? r.prior : r.predicted[method];
  const mae = idx.reduce((a, i) => a + Math.abs(pred[i] - r.actual[i]), 0) / Math.max(1, idx.length);
  // Spearman within each league, averaged over leagues (ranks are shared within a league only)
  const groups = [...new Set(idx.map((i) => r.groups[i]))];
  const rhos = groups.map((g) => {
    const ii = idx.filter((i) => r.groups[i] === g);
    return ii.length > 2 ? spearman(ii.map((i) => pred[i]), ii.map((i) => r.actual[i])) : NaN;
  }).filter(Number.isFinite);
  return { clubs: idx.length, mae_rank: mae, spearman: rhos.length ? rhos.reduce((a, b) => a + b, 0) / rhos.length : NaN };
}

function rankSeason(w: BacktestWorld, fit: OriginFit, model: ImpactArtifact, group0: number): Ranked {
  const games = leagueMatchesOf(w, fit.season);
  const byLeague = new Map<string, MatchRow[]>();
  for (const g of games) byLeague.set(g.competition_id, [...(byLeague.get(g.competition_id) ?? []), g]);
  const leagues = new Set(byLeague.keys());
  const before = w.world.matches.filter((m) => m.date <= fit.origin && leagues.has(m.competition_id));
  const elo = eloAtSeasonStarts(strengthRows(before)).get(fit.season) ?? new Map<string, number>();
  const prior = fitPromotedPrior(before, leagues, fit.origin);
  const out: Ranked = { actual: [], predicted: { model: [], elo: [], last_season: [] }, promoted: [], prior: [], groups: [] };
  let group = group0;
  for (const [league, list] of [...byLeague].sort(([a], [b]) => a.localeCompare(b))) {
    const table = seasonTable(list).map((l) => l.club);
    const n = table.length;
    const forecast = new Map(leagueForecast(model, fit.next, league).clubs.map((c) => [c.clubId, c.expectedPosition]));
    if (table.some((c) => !forecast.has(c))) continue;
    const previous = seasonTable(before.filter((m) => m.competition_id === league && m.season === fit.season - 1)).map((l) => l.club);
    const lastPlace = new Map(previous.filter((c) => table.includes(c)).map((c, i) => [c, i]));
    const left = previous.filter((c) => !table.includes(c)).map((c) => elo.get(c)).filter((x): x is number => x !== undefined);
    const newcomer = left.length ? left.reduce((a, b) => a + b, 0) / left.length : Math.min(...elo.values());
    const priorRank = 1 + promotedLevel(prior, league).finish * (n - 1);
    const ranks = {
      model: rankBy(table, (c) => forecast.get(c)!),
      elo: rankBy(table, (c) => -(elo.get(c) ?? newcomer)),
      // new clubs after last season's, by name (club ids stand in for names here: any fixed order)
      last_season: rankBy(table, (c) => lastPlace.get(c) ?? n + table.indexOf(c) / n),
    };
    table.forEach((c, i) => {
      out.actual.push(i + 1);
      for (const m of METHODS) out.predicted[m].push(ranks[m][i]);
      const isNew = previous.length > 0 && !lastPlace.has(c);
      out.promoted.push(isNew);
      out.prior.push(isNew ? priorRank : ranks.model[i]);
      out.groups.push(group);
    });
    group++;
  }
  return out;
}

/** The league card over the origins' seasons, with the model of each season (its spread set); null when none could be ranked. */
export function leagueBacktest(w: BacktestWorld, seasons: ReadonlyArray<{ fit: OriginFit; model: ImpactArtifact }>): LeagueCard | null {
  const ranked: Array<{ season: number; origin: string; r: Ranked }> = [];
  let group = 0;
  for (const { fit, model } of [...seasons].sort((a, b) => a.fit.season - b.fit.season)) {
    const r = rankSeason(w, fit, model, group);
    if (r.actual.length === 0) continue;
    group = Math.max(...r.groups) + 1;
    ranked.push({ season: fit.season, origin: fit.origin, r });
  }
  if (ranked.length === 0) return null;
  const all: Ranked = {
    actual: ranked.flatMap((x) => x.r.actual),
    predicted: { model: ranked.flatMap((x) => x.r.predicted.model), elo: ranked.flatMap((x) => x.r.predicted.elo), last_season: ranked.flatMap((x) => x.r.predicted.last_season) },
    promoted: ranked.flatMap((x) => x.r.promoted),
    prior: ranked.flatMap((x) => x.r.prior),
    groups: ranked.flatMap((x) => x.r.groups),
  };
  const isPromoted = (i: number) => all.promoted[i];
  return {
    metric: 'mae_rank, spearman',
    origins: ranked.map((x) => x.origin),
    seasons: ranked.map((x) => ({ season: seasonLabel(x.season), model: metrics(x.r, 'model'), elo: metrics(x.r, 'elo'), last_season: metrics(x.r, 'last_season') })),
    model: metrics(all, 'model'),
    baselines: { elo: metrics(all, 'elo'), last_season: metrics(all, 'last_season') },
    promoted: {
      clubs: all.promoted.filter(Boolean).length,
      model: metrics(all, 'model', isPromoted).mae_rank,
      elo: metrics(all, 'elo', isPromoted).mae_rank,
      last_season: metrics(all, 'last_season', isPromoted).mae_rank,
      prior: metrics(all, 'prior', isPromoted).mae_rank,
    },
  };
}
