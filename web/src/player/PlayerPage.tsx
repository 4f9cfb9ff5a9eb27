import { useApi } from '../api/use-api';
import { BarChart } from '../charts/BarChart';
import { ValueChart, yearFraction } from '../charts/ValueChart';
import { links } from '../router';
import { usePickedCurrency } from '../ui/currency';
import { formatCount, formatMoney, formatPercent } from '../ui/format';
import { Show } from '../ui/states';
import { CATEGORIES, loadCareer, loadPlayingTime, loadProfile, loadValues } from './data';
import { ForMyClub } from './ForMyClub';
import { SimilarPlayers } from './SimilarPlayers';
import { ShortlistButton } from '../shortlist/ShortlistButton';
import { AddToList } from '../lists/AddToList';
import { useTitle } from '../ui/title';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Warnings } from '../ui/Warnings';
import { ValueDrivers } from './ValueDrivers';

export function PlayerPage({ id }: { id: string }) {
  const currency = usePickedCurrency();
  const profile = useApi(() => loadProfile(id), [id]);
  useTitle(profile.state === 'ok' ? profile.data.profile.name : 'Player');
  const career = useApi(() => loadCareer(id), [id]);
  const club = profile.state === 'ok' ? (profile.data.info.current_team_id ?? profile.data.info.last_active_club_id ?? profile.data.info.owning_club_id) : null;
  const clubName = career.state === 'ok' && club ? (career.data.find((s) => s.club_id === club)?.club_name ?? null) : null;

  return (
    <main id="main" class="player">
      <Show loaded={profile} what="the player">
        {({ profile: p, info }) => (
          <header class="player-head">
            <h1>{p.name}</h1>
            <p class="lead">
              {info.position} · {info.player_role.replace(/_/g, ' ').toLowerCase()} · {info.nationality}
              {clubName && club && (
                <>
                  {' · '}
                  <a href={links.club(club)}>{clubName}</a>
                </>
              )}
            </p>
            <dl class="facts">
              <Fact term="Age" value={info.age} />
              <Fact term="Born" value={p.birth_date} />
              <Fact term="Height" value={p.height ? `${p.height} cm` : null} />
              <Fact term="Foot" value={info.preferred_foot ?? p.preferred_foot} />
              <Fact term="Contract until" value={info.contract_end_date} />
              <Fact term="Agency" value={info.agency_name} />
            </dl>
            <ShortlistButton playerId={id} />
            <AddToList playerId={id} />
          </header>
        )}
      </Show>
      <div class="columns">
        <section class="card" aria-labelledby="value-h">
          <h2 id="value-h">Value now and in 3 years</h2>
          {club ? <Values id={id} club={club} currency={currency} /> : profile.state === 'ok' ? <p>No club to simulate from.</p> : <div class="chart-frame" />}
        </section>
        <ForMyClub playerId={id} currency={currency} />
      </div>
      <SimilarPlayers id={id} currency={currency} />
      <section class="card" aria-labelledby="career-h">
        <h2 id="career-h">Career</h2>
        <Show loaded={career} what="the career">
          {(steps) => (
            <ol class="timeline">
              {steps.map((s) => (
                <li key={`${s.club_id}-${s.start_date}`}>
                  <span class="years">
                    {s.start_year}–{s.end_year ?? 'now'}
                  </span>{' '}
                  <a href={links.club(s.club_id)}>{s.club_name}</a>
                  {s.is_loan && <span class="badge">loan</span>}
                </li>
              ))}
            </ol>
          )}
        </Show>
      </section>
      <PlayingTime id={id} />
    </main>
  );
}

function Fact({ term, value }: { term: string; value: string | number | null | undefined }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value ?? '—'}</dd>
    </div>
  );
}

function Values({ id, club, currency }: { id: string; club: string; currency: string | null }) {
  const values = useApi(() => loadValues(id, club, currency), [id, club, currency]);
  if (values.state !== 'ok') {
    // The chart's box is held while the valuation loads or fails, so nothing below it jumps.
    return (
      <div class="chart-frame placeholder">
        <Show loaded={values} what="the valuation">
          {() => null}
        </Show>
      </div>
    );
  }
  return (
    <Show loaded={values} what="the valuation">
      {({ fee, future, history }) => {
        const m = (v: number) => formatMoney(v, fee.currency);
        const probs = future.probabilities_of_different_outcomes;
        // The model's "today" is the data's last day (the newest published value), not the calendar.
        const last = history.market_values.at(-1)?.date;
        const now = last ? yearFraction(last) : new Date().getFullYear();
        // The baseline comes in EUR only: converted at the answer's own rate.
        const rate = future.future_transfer_value_in_eur > 0 ? future.future_transfer_value / future.future_transfer_value_in_eur : 1;
        return (
          <>
            <ValueChart
              title="Market value over time, our expected fee today and the value in 3 years, with 80% ranges"
              format={m}
              history={history.market_values.map((v) => ({ t: yearFraction(v.date), value: v.value }))}
              model={[
                { t: now, label: 'Expected fee today', value: fee.expected_transfer_value, low: fee.expected_transfer_value_range.low, high: fee.expected_transfer_value_range.high },
                { t: now + 3, label: 'In 3 years', value: future.future_transfer_value, low: future.future_transfer_value_range.low, high: future.future_transfer_value_range.high },
              ]}
            />
            <p class="legend">
              <span class="key history">market value</span> <span class="key model">our expected fee today and value in 3 years, with 80% ranges</span>
            </p>
            <dl class="facts">
              <div>
                <dt>Expected fee today</dt>
                <dd>
                  {m(fee.expected_transfer_value)} <span class="range">(80%: {m(fee.expected_transfer_value_range.low)}–{m(fee.expected_transfer_value_range.high)})</span>
                </dd>
              </div>
              <div>
                <dt>Value in 3 years</dt>
                <dd>
                  {m(future.future_transfer_value)} <span class="range">(80%: {m(future.future_transfer_value_range.low)}–{m(future.future_transfer_value_range.high)})</span>
                </dd>
              </div>
              <div>
                <dt>Outlook</dt>
                <dd class={`outlook ${outlookTone(future.value_category)}`}>
                  {future.value_category}
                  {future.explanations.over_thirthy_years && ' (over 30 during the simulation)'}
                </dd>
              </div>
            </dl>
            <Warnings warnings={[...fee.warnings, ...future.warnings]} />
            <ValueDrivers drivers={future.drivers} baseline={future.baseline_value_in_eur * rate} median={future.future_transfer_value} format={m} />
            <h3>Chances of each outcome{probs.sample_size ? ` (from ${probs.sample_size} comparable players)` : ''}</h3>
            <BarChart
              title="Probability of each 3-year outcome"
              bars={CATEGORIES.map((c) => ({ label: c, value: probs.probabilities[c] ?? 0 }))}
              max={1}
              format={formatPercent}
              highlight={future.value_category}
            />
            <h3>Comparable players in the history</h3>
            {future.explanations.similar_players.length === 0 ? (
              <p>No comparable player in the history.</p>
            ) : (
              <ScrollRegion label="Comparable players in the history">
                <table>
                  <caption class="sr-only">Comparable historical players</caption>
                  <thead>
                    <tr>
                      <th scope="col">Player</th>
                      <th scope="col">Season</th>
                      <th scope="col">Age</th>
                      <th scope="col">Pos.</th>
                      <th scope="col" class="num">Rating</th>
                      <th scope="col" class="num">Value then</th>
                      <th scope="col" class="num">3 years later</th>
                    </tr>
                  </thead>
                  <tbody>
                    {uniqueBy(future.explanations.similar_players, (s) => s.name).map((s) => (
                      <tr key={s.name}>
                        <td>{s.name}</td>
                        <td>{s.season}</td>
                        <td>{s.age}</td>
                        <td>{s.position}</td>
                        <td class="num">
                          {s.initial_rating}/{s.initial_potential}
                        </td>
                        <td class="num">{m(s.initial_value)}</td>
                        <td class="num">{m(s.later_transfer_value)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
          </>
        );
      }}
    </Show>
  );
}

function PlayingTime({ id }: { id: string }) {
  const seasons = useApi(() => loadPlayingTime(id), [id]);
  return (
    <section class="card" aria-labelledby="pt-h">
      <h2 id="pt-h">Playing time</h2>
      <Show loaded={seasons} what="playing time">
        {(list) =>
          list.length === 0 ? (
            <p>No recorded minutes.</p>
          ) : (
            <ScrollRegion label="Playing time">
              <table>
                <caption class="sr-only">Appearances and minutes by season and competition</caption>
                <thead>
                  <tr>
                    <th scope="col">Season</th>
                    <th scope="col">Competition</th>
                    <th scope="col">Club</th>
                    <th scope="col" class="num">Apps</th>
                    <th scope="col" class="num">Starts</th>
                    <th scope="col" class="num">Minutes</th>
                  </tr>
                </thead>
                <tbody>
                  {list.flatMap((s) =>
                    s.competitions.map((c) => (
                      <tr key={`${s.season}-${c.competition}-${c.club_id}`}>
                        <td>{s.season}</td>
                        <td>{c.competition_name}</td>
                        <td>{c.club_name}</td>
                        <td class="num">{c.appearances}</td>
                        <td class="num">{c.starting_xi_count}</td>
                        <td class="num">{formatCount(c.minutes_played)}</td>
                      </tr>
                    )),
                  )}
                </tbody>
              </table>
            </ScrollRegion>
          )
        }
      </Show>
    </section>
  );
}

/** The outlook's colour follows its category: growth green, decline red, stable plain. */
export function outlookTone(category: string): 'up' | 'down' | '' {
  if (category === 'Decline' || category === 'Major decline') return 'down';
  if (category === 'Elite Prospect' || category === 'Excellent Opportunity' || category === 'Steady Grower') return 'up';
  return '';
}

/** The first of each key: the most similar season of a man, not one row per season of his. */
function uniqueBy<T>(list: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((t) => !seen.has(key(t)) && Boolean(seen.add(key(t))));
}
