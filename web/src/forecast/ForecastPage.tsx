import { zoneOf } from './zones';
import { useTitle } from '../ui/title';
import { useApi } from '../api/use-api';
import { competitionName } from '../competitions/names';
import { links } from '../router';
import { usePickedCurrency } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { Show } from '../ui/states';
import { loadForecast, type Forecast } from './data';
import { heatColour } from './heat';
import { ScrollRegion } from '../ui/ScrollRegion';

/** The league's simulated table and, per club, the chance of each final place as a heat map. */
export function ForecastPage({ id, club }: { id: string; club: string | null }) {
  const currency = usePickedCurrency();
  const forecast = useApi(() => loadForecast(id, currency), [id, currency]);
  const name = competitionName(id);
  useTitle(`${name} forecast`);
  return (
    <main id="main" class="forecast">
      <nav aria-label="Breadcrumb" class="crumbs">
        <a href={links.competitions()}>Competitions</a> › <a href={links.competition(id)}>{name}</a> › <span>League forecast</span>
      </nav>
      <h1>League forecast: {name}</h1>
      <Show loaded={forecast} what="the league forecast (a season simulated many times)">
        {(f) => (
          <>
            <p class="lead">
              Season {f.season}, {f.clubs.length} clubs, each club with its actual squad. Ordered by expected final place; league money in {f.currency}.
            </p>
            <SeasonNotice forecast={f} />
            <Table forecast={f} club={club} />
            <HeatMap forecast={f} club={club} />
          </>
        )}
      </Show>
    </main>
  );
}

/** The season's clubs were not named: say which season's clubs the table simulates. */
function SeasonNotice({ forecast: f }: { forecast: Forecast }) {
  const assumed = f.warnings.filter((w) => w.code === 'season_clubs_assumed');
  if (assumed.length === 0) return null;
  return (
    <p class="notice season-clubs-assumed" role="note">
      {assumed.map((w) => w.message).join(' ')}
    </p>
  );
}

function Table({ forecast: f, club }: { forecast: Forecast; club: string | null }) {
  return (
    <section class="card" aria-labelledby="table-h">
      <h2 id="table-h">Expected table</h2>
      <p class="hint">Expected final place, points and league money (prize and TV money by place), averaged over the simulated seasons.</p>
      <p class="legend zones">
        <span class="key zone-title">Title</span> <span class="key zone-european">European places</span> <span class="key zone-relegation">Relegation</span>{' '}
        <span class="hint">(the usual places of a league this size, by the order of the expected table)</span>
      </p>
      <ScrollRegion label="Expected table">
        <table class="forecast-table">
          <caption class="sr-only">
            Expected final place, points and league money of each club, {f.season}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                <abbr title="Order by expected place">#</abbr>
              </th>
              <th scope="col">Club</th>
              <th scope="col" class="num">Place</th>
              <th scope="col" class="num">Points</th>
              <th scope="col" class="num">League money</th>
              <th scope="col">Zone</th>
            </tr>
          </thead>
          <tbody>
            {f.clubs.map((c, i) => {
              const zone = zoneOf(i + 1, f.clubs.length);
              const cls = [c.club_id === club ? 'mine' : '', zone ? `zone-${zone.split(' ')[0].toLowerCase()}` : ''].filter(Boolean).join(' ');
              return (
              <tr key={c.club_id} data-club={c.club_id} class={cls || undefined} aria-current={c.club_id === club ? 'true' : undefined}>
                <td class="num">{i + 1}</td>
                <th scope="row">
                  <a href={links.club(c.club_id)}>{c.name}</a>
                </th>
                <td class="num expected-position">{c.expected_position.toFixed(2)}</td>
                <td class="num">{c.expected_points.toFixed(1)}</td>
                <td class="num">{formatMoney(c.expected_revenue, f.currency)}</td>
                <td class="zone">{zone ?? ''}</td>
              </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

/**
 * Clubs × places as a table whose cells are coloured by probability: a screen reader reads the
 * numbers, a person sees the shape. The colour scale runs to the largest probability in the league.
 */
function HeatMap({ forecast: f, club }: { forecast: Forecast; club: string | null }) {
  const places = f.clubs[0]?.position_probabilities.length ?? 0;
  const top = Math.max(0.01, ...f.clubs.flatMap((c) => c.position_probabilities));
  return (
    <section class="card" aria-labelledby="heat-h">
      <h2 id="heat-h">Chance of each final place</h2>
      <p class="hint" id="heat-hint">
        Percent; the darker, the likelier; empty: under 0.5%. On a narrow screen the map scrolls sideways.
      </p>
      <ScrollRegion label="Chance of each final place" describedBy="heat-hint" class="heat-wrap">
        <table class="heatmap">
          <caption class="sr-only">Probability in percent of each final place (columns) for each club (rows)</caption>
          <thead>
            <tr>
              <th scope="col" class="club">Club</th>
              {Array.from({ length: places }, (_, p) => (
                <th key={p} scope="col" class="place">
                  <span class="sr-only">Place </span>
                  {p + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {f.clubs.map((c) => (
              <tr key={c.club_id} class={c.club_id === club ? 'mine' : undefined}>
                <th scope="row" class="club">
                  {c.name}
                </th>
                {c.position_probabilities.map((p, i) => {
                  const pct = Math.round(p * 100);
                  const { background, ink } = heatColour(p / top);
                  return (
                    <td key={i} class="cell" style={{ backgroundColor: background, color: ink }} data-p={p} title={`${c.name}: place ${i + 1}, ${(p * 100).toFixed(1)}%`}>
                      {p >= 0.005 ? pct : <span class="sr-only">under 0.5</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p class="heat-legend" aria-hidden="true">
        <span>0%</span>
        <span class="ramp" />
        <span>{Math.round(top * 100)}%</span>
      </p>
    </section>
  );
}
