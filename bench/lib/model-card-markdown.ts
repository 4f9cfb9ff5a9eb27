/**
 * The model card (GET /v1/model_card, stored with the models) as the markdown tables of
 * docs/models.md: one block per model, written between `<!-- card:NAME -->` and `<!-- /card:NAME -->`
 * by bench/model-card.ts, so the document, the API and the Studio read the same figures.
 */
import type { FeeCard, FutureCard, LeagueCard, MatchCard, ModelCard, RangeCoverage, RatingCard, ValueMetrics } from '../../src/valuation/backtest/card.js';

const f3 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3));
const f4 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(4));
const f2 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));
const pct = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))].join('\n');

function source(card: ModelCard, origins: readonly string[]): string {
  return `Data ${card.data_version}, as of ${card.as_of}; origins ${origins.join(', ')}.`;
}

function coverageCells(c: RangeCoverage): string[] {
  return [String(c.n), pct(c.inside), pct(c.below), pct(c.above)];
}

function fee(card: ModelCard, m: FeeCard): string {
  const line = (name: string, v: ValueMetrics) => row([name, f3(v.r2_log), pct(v.mdape), f3(v.spearman), f3(v.bias)]);
  const c = m.range_coverage;
  return [
    source(card, m.origins) + ` ${m.n} paid transfers, each in the 12 months after its origin.`,
    '',
    head(['forecast', 'R² (log)', 'median APE', 'Spearman', 'median log bias']),
    line('model', m.model), line('crowd value on the transfer', m.baselines.crowd), line('last crowd value', m.baselines.last_value),
    '',
    head(['fee paid', 'n', 'model median APE', 'crowd median APE', 'last value median APE']),
    ...m.by_band.map((b) => row([b.band, b.n, pct(b.model.mdape), pct(b.crowd.mdape), pct(b.last_value.mdape)])),
    '',
    head(['80% range', 'n', 'inside', 'below', 'above', 'inside before calibration']),
    row(['all', ...coverageCells(c), pct(c.before_calibration.inside)]),
    ...c.by_band.map((b, i) => row([`fee paid ${b.band}`, ...coverageCells(b), pct(c.before_calibration.by_band[i]?.inside)])),
    ...(c.by_predicted_band ?? []).map((b, i) => row([`fee forecast ${b.band}`, ...coverageCells(b), pct(c.before_calibration.by_predicted_band?.[i]?.inside)])),
  ].join('\n');
}

function future(card: ModelCard, m: FutureCard): string {
  const c = m.range_coverage;
  return [
    source(card, m.origins) + ` ${m.n} players valued in the year before the origin, scored on their value ${m.horizon_years} years on.`,
    '',
    head(['forecast', 'Spearman (ratio)', 'median abs. log error']),
    row(['model', f3(m.model.spearman), f3(m.model.mdale)]),
    row(['age curve', f3(m.baselines.age_curve.spearman), f3(m.baselines.age_curve.mdale)]),
    row(['no change', f3(m.baselines.no_change.spearman), f3(m.baselines.no_change.mdale)]),
    '',
    head(['80% range', 'n', 'inside', 'below', 'above', 'inside before calibration']),
    row(['all', ...coverageCells(c), pct(c.before_calibration.inside)]),
    ...c.by_band.map((b, i) => row([`value then ${b.band}`, ...coverageCells(b), pct(c.before_calibration.by_band[i]?.inside)])),
    '',
    head(['category', 'predicted share', 'observed share']),
    ...m.categories.map((x) => row([x.category, pct(x.predicted_share), pct(x.observed_share)])),
  ].join('\n');
}

function rating(card: ModelCard, m: RatingCard): string {
  const last = m.baselines.last_rating;
  return [
    source(card, m.origins) + ` Checked against ${m.target}.`,
    '',
    head(['rating', 'players', 'MAE', 'Spearman']),
    row(['ours, as of the origin', m.n, f2(m.model.mae), f3(m.model.spearman)]),
    ...(last && m.model_with_last_rating
      ? [row(['ours, on players with an earlier edition', m.model_with_last_rating.n, f2(m.model_with_last_rating.mae), f3(m.model_with_last_rating.spearman)]), row(['the last published rating', last.n, f2(last.mae), f3(last.spearman)])]
      : [row(['the last published rating', '–', 'none before the origin', '–'])]),
  ].join('\n');
}

function league(card: ModelCard, m: LeagueCard): string {
  return [
    source(card, m.origins) + ` ${m.model.clubs} club-seasons.`,
    '',
    head(['season', 'clubs', 'model MAE', 'Elo MAE', 'last season MAE', 'model Spearman', 'Elo Spearman']),
    ...m.seasons.map((s) => row([s.season, s.model.clubs, f2(s.model.mae_rank), f2(s.elo.mae_rank), f2(s.last_season.mae_rank), f3(s.model.spearman), f3(s.elo.spearman)])),
    row(['pooled', m.model.clubs, f2(m.model.mae_rank), f2(m.baselines.elo.mae_rank), f2(m.baselines.last_season.mae_rank), f3(m.model.spearman), f3(m.baselines.elo.spearman)]),
    '',
    head(['promoted clubs', 'clubs', 'model MAE', 'Elo MAE', 'last season MAE', 'naive prior MAE']),
    row(['', m.promoted.clubs, f2(m.promoted.model), f2(m.promoted.elo), f2(m.promoted.last_season), f2(m.promoted.prior)]),
  ].join('\n');
}

function match(card: ModelCard, m: MatchCard): string {
  const tenths = [...new Set(m.calibration.map((b) => b.tenth))].sort((a, b) => a - b);
  const cell = (outcome: string, tenth: number) => {
    const b = m.calibration.find((x) => x.outcome === outcome && x.tenth === tenth);
    return b ? `${pct(b.predicted)} → ${pct(b.observed)} (${b.n})` : '';
  };
  return [
    source(card, m.origins) + ` ${m.model.matches} league matches, each predicted on the 30 June before its season.`,
    '',
    head(['season', 'spread', 'matches', 'model RPS', 'Elo + Poisson RPS', 'base rates RPS', 'model log loss', 'Elo log loss', 'model accuracy', 'Elo accuracy']),
    ...m.seasons.map((s) => row([s.season, f2(s.spread), s.model.matches, f4(s.model.rps), f4(s.elo_poisson.rps), f4(s.base_rates.rps), f3(s.model.log_loss), f3(s.elo_poisson.log_loss), pct(s.model.accuracy), pct(s.elo_poisson.accuracy)])),
    row(['pooled', '', m.model.matches, f4(m.model.rps), f4(m.baselines.elo_poisson.rps), f4(m.baselines.base_rates.rps), f3(m.model.log_loss), f3(m.baselines.elo_poisson.log_loss), pct(m.model.accuracy), pct(m.baselines.elo_poisson.accuracy)]),
    '',
    'Calibration, pooled: predicted → observed frequency (matches), by tenth of the predicted probability.',
    '',
    head(['tenth', 'home win', 'draw', 'away win']),
    ...tenths.map((t) => row([`${(t / 10).toFixed(1)}-${((t + 1) / 10).toFixed(1)}`, cell('home_win', t), cell('draw', t), cell('away_win', t)])),
  ].join('\n');
}

/** Each model's markdown block, by the name its markers carry. */
export function cardBlocks(card: ModelCard): Record<string, string> {
  const out: Record<string, string> = {};
  const m = card.models;
  if (m.fee) out.fee = fee(card, m.fee);
  if (m.future) out.future = future(card, m.future);
  if (m.rating) out.rating = rating(card, m.rating);
  if (m.league) out.league = league(card, m.league);
  if (m.match) out.match = match(card, m.match);
  return out;
}

/** The document with each `<!-- card:NAME -->…<!-- /card:NAME -->` block replaced; names without a block are left as they are. */
export function spliceBlocks(doc: string, blocks: Record<string, string>): { doc: string; written: string[] } {
  const written: string[] = [];
  const out = doc.replace(/<!-- card:(\w+) -->\n[\s\S]*?<!-- \/card:\1 -->/g, (whole, name: string) => {
    const block = blocks[name];
    if (block === undefined) return whole;
    written.push(name);
    return `<!-- card:${name} -->\n${block}\n<!-- /card:${name} -->`;
  });
  return { doc: out, written };
}
