/**
 * The model card: what the backtests run at every training measured, stored with the model bundle
 * and answered by GET /v1/model_card. Only figures a backtest computed; a model whose backtest could
 * not run on the data (too little history before the as-of date) is absent, never zero.
 * Field names are the API's (snake_case), so the stored card is served as it is.
 */

/** A fee or value forecast's accuracy: log R², median absolute percentage error, rank correlation, median log bias. */
export interface ValueMetrics {
  n: number;
  r2_log: number;
  mdape: number;
  spearman: number;
  /** median of log(predicted / actual): above 0, too high */
  bias: number;
}

export interface RangeCoverage {
  nominal: number;
  n: number;
  /** shares of the outcomes inside, below and above the range */
  inside: number;
  below: number;
  above: number;
}

export interface BandedCoverage extends RangeCoverage {
  /** by band of the outcome (the fee actually paid; for future values the value at the origin) */
  by_band: Array<RangeCoverage & { band: string }>;
  /** by band of the forecast, the number a user reads (fees only) */
  by_predicted_band?: Array<RangeCoverage & { band: string }>;
}

export interface FeeCard {
  metric: 'r2_log, mdape, spearman, bias';
  origins: string[];
  n: number;
  model: ValueMetrics;
  baselines: { crowd: ValueMetrics; last_value: ValueMetrics };
  by_band: Array<{ band: string; n: number; model: ValueMetrics; crowd: ValueMetrics; last_value: ValueMetrics }>;
  range_coverage: BandedCoverage & { before_calibration: BandedCoverage };
}

export interface FutureMetrics {
  n: number;
  /** of the predicted and the actual ratio to the value at the origin; null for a constant forecast (no change) */
  spearman: number | null;
  /** median absolute log error */
  mdale: number;
}

export interface FutureCard {
  metric: 'spearman, mdale';
  origins: string[];
  horizon_years: number;
  n: number;
  model: FutureMetrics;
  baselines: { age_curve: FutureMetrics; no_change: FutureMetrics };
  range_coverage: BandedCoverage & { before_calibration: BandedCoverage };
  categories: Array<{ category: string; predicted_share: number; observed_share: number }>;
}

export interface RatingMetrics {
  n: number;
  mae: number;
  spearman: number;
}

export interface RatingCard {
  metric: 'mae, spearman';
  origins: string[];
  /** what the ratings were checked against */
  target: string;
  n: number;
  model: RatingMetrics;
  /** absent where the data holds no edition before the origin */
  baselines: { last_rating?: RatingMetrics };
  /** ours on the players the baseline covers */
  model_with_last_rating?: RatingMetrics;
}

export interface RankMetrics {
  clubs: number;
  mae_rank: number;
  spearman: number;
}

export interface LeagueSeason {
  season: string;
  model: RankMetrics;
  elo: RankMetrics;
  last_season: RankMetrics;
}

export interface LeagueCard {
  metric: 'mae_rank, spearman';
  origins: string[];
  seasons: LeagueSeason[];
  model: RankMetrics;
  baselines: { elo: RankMetrics; last_season: RankMetrics };
  /** clubs new to their league that season, apart; `prior`: each at its league's mean promoted finish */
  promoted: { clubs: number; model: number; elo: number; last_season: number; prior: number };
}

export interface MatchMetrics {
  matches: number;
  rps: number;
  log_loss: number;
  /** share of matches whose likeliest outcome happened */
  accuracy: number;
}

export interface CalibrationBin {
  outcome: 'home_win' | 'draw' | 'away_win';
  /** the tenth of the predicted probability: 0 holds 0-0.1 */
  tenth: number;
  n: number;
  predicted: number;
  observed: number;
}

export interface MatchSeason {
  season: string;
  /** the strengths' spread the season was predicted with, learned from the seasons before it */
  spread: number;
  model: MatchMetrics;
  elo_poisson: MatchMetrics;
  base_rates: MatchMetrics;
}

export interface MatchCard {
  metric: 'rps, log_loss, accuracy';
  origins: string[];
  seasons: MatchSeason[];
  model: MatchMetrics;
  baselines: { elo_poisson: MatchMetrics; base_rates: MatchMetrics };
  calibration: CalibrationBin[];
}

export interface ModelCardModels {
  fee?: FeeCard;
  future?: FutureCard;
  rating?: RatingCard;
  league?: LeagueCard;
  match?: MatchCard;
}

export interface ModelCard {
  as_of: string;
  data_version: string;
  model_version: string;
  generated_at: string;
  /** how long the backtests took at training, in seconds */
  backtest_seconds: number;
  models: ModelCardModels;
}
