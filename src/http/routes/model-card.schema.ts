import { z } from 'zod';

/** GET /v1/model_card's answer: the backtests' figures as training stored them (valuation/backtest/card.ts). */

const share = (what: string) => z.number().describe(`${what}, a share (0.8 = 80%)`);
const num = (what: string) => z.number().nullable().describe(`${what}; null where the backtest could not compute it`);

const valueMetrics = z.object({
  n: z.number().int().describe('Outcomes scored'),
  r2_log: num('R² of the log of the forecast against the log of the outcome'),
  mdape: num('Median absolute percentage error, a share (0.3 = 30%)'),
  spearman: num('Rank correlation of forecast and outcome'),
  bias: num('Median of log(forecast / outcome): above 0 the forecast runs high'),
}).describe('Accuracy of a fee forecast');

const coverage = z.object({
  nominal: share('The range\'s nominal coverage'),
  n: z.number().int().describe('Outcomes scored'),
  inside: share('Outcomes inside the range'),
  below: share('Outcomes below it'),
  above: share('Outcomes above it'),
}).describe('How often the outcome fell inside the 80% range');

const banded = (bands: string) => coverage.extend({
  by_band: z.array(coverage.extend({ band: z.string().describe('<5M, 5-20M or >=20M (EUR)') })).describe(`The same ${bands}`),
  by_predicted_band: z.array(coverage.extend({ band: z.string().describe('<5M, 5-20M or >=20M (EUR)') })).optional().describe('The same by band of the forecast, the number a user reads'),
});

const rangeCoverage = (bands: string) => banded(bands).extend({
  before_calibration: banded(bands).describe('The model\'s own range, before the backtest calibrated it'),
}).describe('The served range\'s coverage, each held-back outcome scored with a calibration learned without it');

const origins = z.array(z.string()).describe('Origins (YYYY-MM-DD): each model fitted on what was known that day, scored on what followed');

const fee = z.object({
  metric: z.string().describe('The figures of each metric object'),
  origins,
  n: z.number().int().describe('Paid transfers scored, those of the 12 months after each origin'),
  model: valueMetrics,
  baselines: z.object({
    crowd: valueMetrics.describe('The crowd\'s value on the transfer'),
    last_value: valueMetrics.describe('His last crowd value before the transfer'),
  }).describe('What the model is measured against, on the same transfers'),
  by_band: z.array(z.object({
    band: z.string().describe('Band of the fee paid: <5M, 5-20M or >=20M (EUR)'),
    n: z.number().int().describe('Transfers in the band'),
    model: valueMetrics,
    crowd: valueMetrics.describe('The crowd\'s value on the transfer'),
    last_value: valueMetrics.describe('His last crowd value before the transfer'),
  }).describe('One fee band')).describe('By band of the fee actually paid'),
  range_coverage: rangeCoverage('by band of the fee paid'),
}).describe('Expected transfer fee');

const futureMetrics = z.object({
  n: z.number().int().describe('Players scored'),
  spearman: num('Rank correlation of the forecast and the actual ratio to the value at the origin'),
  mdale: num('Median absolute log error of the value three years on'),
}).describe('Accuracy of a future-value forecast');

const future = z.object({
  metric: z.string().describe('The figures of each metric object'),
  origins,
  horizon_years: z.number().int().describe('Years between the origin and the outcome'),
  n: z.number().int().describe('Players valued in the year before the origin with a value at the horizon'),
  model: futureMetrics,
  baselines: z.object({
    age_curve: futureMetrics.describe('The median ratio of his position group and age in the training data'),
    no_change: futureMetrics.describe('His value at the origin'),
  }).describe('What the model is measured against, on the same players'),
  range_coverage: rangeCoverage('by band of his value at the origin'),
  categories: z.array(z.object({
    category: z.string().describe('A value category'),
    predicted_share: share('Mean predicted probability of the category'),
    observed_share: share('Players whose outcome fell in it (ratio to the value at the origin)'),
  }).describe('One category')).describe('The six categories, predicted against observed'),
}).describe('Future transfer value in three years');

const ratingMetrics = z.object({
  n: z.number().int().describe('Players scored'),
  mae: num('Mean absolute error in rating points'),
  spearman: num('Rank correlation'),
}).describe('Accuracy of a rating');

const rating = z.object({
  metric: z.string().describe('The figures of each metric object'),
  origins,
  target: z.string().describe('What the ratings were checked against'),
  n: z.number().int().describe('Players scored'),
  model: ratingMetrics,
  baselines: z.object({ last_rating: ratingMetrics.optional().describe('The last published rating before the origin (absent where the data holds none)') }).describe('What the model is measured against'),
  model_with_last_rating: ratingMetrics.optional().describe('The model on the players the baseline covers'),
}).describe('Player rating');

const rankMetrics = z.object({
  clubs: z.number().int().describe('Club-seasons scored'),
  mae_rank: num('Mean absolute error of the final place'),
  spearman: num('Rank correlation with the final table, per league, averaged'),
}).describe('Accuracy of a final table');

const league = z.object({
  metric: z.string().describe('The figures of each metric object'),
  origins,
  seasons: z.array(z.object({
    season: z.string().describe('The held-back season, YYYY/YYYY'),
    model: rankMetrics,
    elo: rankMetrics.describe('Clubs ranked by their Elo rating at the season\'s start'),
    last_season: rankMetrics.describe('Last season\'s table, new clubs at the bottom'),
  }).describe('One held-back season')).describe('Per held-back season'),
  model: rankMetrics,
  baselines: z.object({ elo: rankMetrics.describe('Elo'), last_season: rankMetrics.describe('Last season\'s table') }).describe('Pooled baselines'),
  promoted: z.object({
    clubs: z.number().int().describe('Clubs new to their league that season'),
    model: num('The model\'s mean absolute rank error on them'),
    elo: num('Elo\'s'),
    last_season: num('Last season\'s table\'s'),
    prior: num('Each placed at the mean finish of its league\'s promoted clubs before the origin'),
  }).describe('Promoted clubs apart'),
}).describe('League forecast');

const matchMetrics = z.object({
  matches: z.number().int().describe('Matches scored'),
  rps: num('Ranked probability score of home win, draw, away win (lower is better)'),
  log_loss: num('Log loss of the outcome'),
  accuracy: num('Share of matches whose likeliest outcome happened'),
}).describe('Accuracy of match probabilities');

const match = z.object({
  metric: z.string().describe('The figures of each metric object'),
  origins,
  seasons: z.array(z.object({
    season: z.string().describe('The held-back season, YYYY/YYYY'),
    spread: z.number().describe('The strengths\' spread the season was predicted with, learned from the seasons before it'),
    model: matchMetrics,
    elo_poisson: matchMetrics.describe('Elo with Poisson goals, ratings frozen on the 30 June before'),
    base_rates: matchMetrics.describe('The league\'s shares of home wins, draws and away wins in the three seasons before'),
  }).describe('One held-back season')).describe('Per held-back season'),
  model: matchMetrics,
  baselines: z.object({ elo_poisson: matchMetrics.describe('Elo with Poisson goals'), base_rates: matchMetrics.describe('Base rates') }).describe('Pooled baselines'),
  calibration: z.array(z.object({
    outcome: z.enum(['home_win', 'draw', 'away_win']).describe('The outcome'),
    tenth: z.number().int().describe('The tenth of the predicted probability: 0 holds 0-0.1, 9 holds 0.9-1'),
    n: z.number().int().describe('Matches in it'),
    predicted: share('Mean predicted probability'),
    observed: share('How often the outcome happened'),
  }).describe('One tenth of one outcome')).describe('Predicted against observed frequency, pooled over the seasons'),
}).describe('Match model');

export const modelCardSchema = z.object({
  as_of: z.string().describe('The models\' as-of date: every backtest read only data before it'),
  data_version: z.string().describe('Version of the data the models were trained on'),
  model_version: z.string().describe('Version of the models the card describes'),
  generated_at: z.string().describe('When training made the card (ISO 8601)'),
  backtest_seconds: z.number().describe('What the backtests cost the training, in seconds'),
  models: z.object({
    fee: fee.optional(),
    future: future.optional(),
    rating: rating.optional(),
    league: league.optional(),
    match: match.optional(),
  }).describe('Each model\'s backtest; a model the data could not backtest is absent'),
}).describe('How good the numbers are, measured');
