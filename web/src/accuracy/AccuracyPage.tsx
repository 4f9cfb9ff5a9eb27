import { useApi } from '../api/use-api';
import { BarChart } from '../charts/BarChart';
import { PlotFigure } from '../charts/PlotFigure';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Show } from '../ui/states';
import { useTitle } from '../ui/title';
import { loadModelCard, type ModelCard, type Models } from './data';
import { feeSentences, futureSentences, leagueSentences, matchSentences } from './sentences';

const OUTCOME = { home_win: 'Home win', draw: 'Draw', away_win: 'Away win' } as const;
const CALIBRATION_PLOT_HEIGHT = 300;
/** the swatch legend Plot puts above the calibration plot (its min-height in styles.css, and its margin) */
const LEGEND_HEIGHT = 40;
/** A category's first word (the second for Major decline), so the chart's labels fit a phone. */
const short = (category: string) => (category.startsWith('Major') ? 'Major decline' : category.split(' ')[0]);
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '–' : x.toFixed(d));

/** How good the numbers are: the model card's figures, as charts with a sentence above each. */
export function AccuracyPage() {
  useTitle('Accuracy');
  const card = useApi(() => loadModelCard(), []);
  return (
    <main id="main" class="accuracy">
      <h1>Accuracy</h1>
      <Show loaded={card} what="the model card (the backtests run when the models were trained)">
        {(c) => (
          <>
            <p class="lead">
              Each model was fitted on the data known on each origin date and scored on what happened after it, before {c.as_of}. Models {c.model_version}; the
              backtests took {c.backtest_seconds} s of the training.
            </p>
            {c.models.fee && <FeeSection fee={c.models.fee} />}
            {c.models.future && <FutureSection future={c.models.future} />}
            {c.models.match && <MatchSection match={c.models.match} />}
            {c.models.league && <LeagueSection league={c.models.league} />}
            {c.models.rating && <RatingSection rating={c.models.rating} />}
            <Origins card={c} />
          </>
        )}
      </Show>
    </main>
  );
}

function Lead({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((l) => (
        <p key={l} class="sentence">
          {l}
        </p>
      ))}
    </>
  );
}

function FeeSection({ fee }: { fee: NonNullable<Models['fee']> }) {
  const bars = fee.by_band.flatMap((b) => [
    { label: `${b.band}: ours`, value: b.model.mdape ?? 0 },
    { label: `${b.band}: crowd`, value: b.crowd.mdape ?? 0 },
  ]);
  return (
    <section class="card" aria-labelledby="fee-h">
      <h2 id="fee-h">Expected transfer fee</h2>
      <Lead lines={feeSentences(fee)} />
      <BarChart bars={bars} max={Math.max(...bars.map((b) => b.value), 0.01) * 1.15} format={pct} title="Median error of the fee by band of the fee paid, ours beside the crowd's value" />
      <Coverage title="The 80% range" rows={[['all', fee.range_coverage], ...fee.range_coverage.by_band.map((b) => [`fee paid ${b.band}`, b] as const), ...(fee.range_coverage.by_predicted_band ?? []).map((b) => [`our fee ${b.band}`, b] as const)]} />
    </section>
  );
}

function FutureSection({ future }: { future: NonNullable<Models['future']> }) {
  const bars = future.categories.flatMap((c) => [
    { label: `${short(c.category)}: predicted`, value: c.predicted_share },
    { label: `${short(c.category)}: observed`, value: c.observed_share },
  ]);
  return (
    <section class="card" aria-labelledby="future-h">
      <h2 id="future-h">Value in three years</h2>
      <Lead lines={futureSentences(future)} />
      <BarChart bars={bars} max={Math.max(...bars.map((b) => b.value), 0.01) * 1.15} format={pct} title="Each category: the share we predicted beside the share that happened" />
      <Coverage title="The 80% range" rows={[['all', future.range_coverage], ...future.range_coverage.by_band.map((b) => [`value then ${b.band}`, b] as const)]} />
    </section>
  );
}

type CoverageRow = { n: number; inside: number; below: number; above: number };

function Coverage({ title, rows }: { title: string; rows: ReadonlyArray<readonly [string, CoverageRow]> }) {
  return (
    <ScrollRegion label={title}>
      <table class="coverage">
        <caption>{title}: how often the outcome fell inside, below and above it (nominal 80%)</caption>
        <thead>
          <tr>
            <th scope="col">Outcomes</th>
            <th scope="col" class="num">n</th>
            <th scope="col" class="num">Inside</th>
            <th scope="col" class="num">Below</th>
            <th scope="col" class="num">Above</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, r]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td class="num">{r.n}</td>
              <td class="num">{pct(r.inside)}</td>
              <td class="num">{pct(r.below)}</td>
              <td class="num">{pct(r.above)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function MatchSection({ match }: { match: NonNullable<Models['match']> }) {
  const points = match.calibration.filter((b) => b.n >= 30).map((b) => ({ ...b, outcome: OUTCOME[b.outcome] }));
  const label = `Calibration: predicted against observed frequency of home wins, draws and away wins by tenth; ${points.map((b) => `${b.outcome} ${pct(b.predicted)} → ${pct(b.observed)}`).join(', ')}`;
  return (
    <section class="card" aria-labelledby="match-h">
      <h2 id="match-h">Match model</h2>
      <Lead lines={matchSentences(match)} />
      <p class="hint">Calibration: each dot is a tenth of our predicted probability (at least 30 matches); on the line, what we said happened as often as we said.</p>
      <PlotFigure
        class="calibration"
        height={CALIBRATION_PLOT_HEIGHT + LEGEND_HEIGHT}
        label={label}
        signature={JSON.stringify(points)}
        draw={(Plot, width) =>
          Plot.plot({
            width,
            height: CALIBRATION_PLOT_HEIGHT,
            x: { domain: [0, 1], label: 'Predicted', tickFormat: '.0%' },
            y: { domain: [0, 1], label: 'Observed', tickFormat: '.0%', grid: true },
            color: { legend: true, domain: Object.values(OUTCOME), range: ['#0b6e4f', '#7a7a7a', '#b5562b'] },
            marks: [
              Plot.line([[0, 0], [1, 1]], { stroke: '#bbb' }),
              Plot.dot(points, { x: 'predicted', y: 'observed', fill: 'outcome', r: 4 }),
            ],
          })
        }
      />
      <ScrollRegion label="Match model per season">
        <table class="coverage">
          <caption>Ranked probability score per held-back season (lower is better)</caption>
          <thead>
            <tr>
              <th scope="col">Season</th>
              <th scope="col" class="num">Matches</th>
              <th scope="col" class="num">Ours</th>
              <th scope="col" class="num">Elo + Poisson</th>
              <th scope="col" class="num">Base rates</th>
            </tr>
          </thead>
          <tbody>
            {match.seasons.map((s) => (
              <tr key={s.season}>
                <th scope="row">{s.season}</th>
                <td class="num">{s.model.matches}</td>
                <td class="num">{num(s.model.rps, 4)}</td>
                <td class="num">{num(s.elo_poisson.rps, 4)}</td>
                <td class="num">{num(s.base_rates.rps, 4)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

function LeagueSection({ league }: { league: NonNullable<Models['league']> }) {
  const bars = league.seasons.flatMap((s) => [
    { label: `${s.season}: ours`, value: s.model.mae_rank ?? 0 },
    { label: `${s.season}: Elo`, value: s.elo.mae_rank ?? 0 },
  ]);
  return (
    <section class="card" aria-labelledby="league-h">
      <h2 id="league-h">League forecast</h2>
      <Lead lines={leagueSentences(league)} />
      <BarChart bars={bars} max={Math.max(...bars.map((b) => b.value), 0.01) * 1.15} format={(v) => `${v.toFixed(2)} places`} title="Mean error of the final place per held-back season, ours beside Elo" />
    </section>
  );
}

function RatingSection({ rating }: { rating: NonNullable<Models['rating']> }) {
  const last = rating.baselines.last_rating;
  return (
    <section class="card" aria-labelledby="rating-h">
      <h2 id="rating-h">Ratings</h2>
      <p class="sentence">
        Against {rating.target}, our ratings were off by {num(rating.model.mae)} points on average over {rating.n} players (rank correlation {num(rating.model.spearman)})
        {last ? `; the last published rating was off by ${num(last.mae)}.` : '; the data holds no earlier edition to compare with.'}
      </p>
    </section>
  );
}

function Origins({ card }: { card: ModelCard }) {
  return (
    <p class="hint">
      Data version {card.data_version}, card made {new Date(card.generated_at).toISOString().slice(0, 10)}. The same figures: <code>GET /v1/model_card</code>.
    </p>
  );
}
