import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { ClubPicker } from '../competitions/ClubPicker';
import { links } from '../router';
import { POSITIONS } from '../squad/lines';
import { currencyBody, usePickedCurrency } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { ScrollRegion } from '../ui/ScrollRegion';
import { ErrorBox, Loading } from '../ui/states';
import { useTitle } from '../ui/title';
import { Warnings } from '../ui/Warnings';

async function recommend(body: { club_id: string; position: string; budget: string; maxAge: string }, currency: string | null) {
  return unwrap(
    await api.POST('/v1/recommend_signings', {
      body: {
        club_id: body.club_id,
        position: body.position,
        ...(body.budget ? { max_expected_transfer_value: Number(body.budget) } : {}),
        ...(body.maxAge ? { max_age: Number(body.maxAge) } : {}),
        limit: 10,
        ...currencyBody(currency),
      },
    }),
  );
}

type Answer = Awaited<ReturnType<typeof recommend>>;

/** Whom to sign for a position: the API's ranked candidates, each with why he ranks there. */
export function RecommendPage() {
  useTitle('Recommend');
  const currency = usePickedCurrency();
  const [competition, setCompetition] = useState('');
  const [club, setClub] = useState('');
  const [position, setPosition] = useState('CB');
  const [budget, setBudget] = useState('');
  const [maxAge, setMaxAge] = useState('');
  const [state, setState] = useState<{ s: 'idle' } | { s: 'loading' } | { s: 'error'; message: string } | { s: 'ok'; data: Answer }>({ s: 'idle' });

  const submit = (e: Event) => {
    e.preventDefault();
    if (!club) {
      setState({ s: 'error', message: 'Choose the signing club first.' });
      return;
    }
    setState({ s: 'loading' });
    recommend({ club_id: club, position, budget, maxAge }, currency).then(
      (data) => setState({ s: 'ok', data }),
      (err: unknown) => setState({ s: 'error', message: err instanceof Error ? err.message : 'No recommendation.' }),
    );
  };

  return (
    <main id="main">
      <h1>Recommend signings</h1>
      <p class="lead">The players who would pay back best at your club for one position, ranked by the net value each signing leaves the club: what he adds on the pitch over three seasons and his value at their end, less the fee.</p>
      <form class="card form-grid" onSubmit={submit}>
        <ClubPicker competition={competition} club={club} onCompetition={(c) => { setCompetition(c); setClub(''); }} onClub={(id) => setClub(id)} />
        <label>
          Position
          <select value={position} onChange={(e) => setPosition(e.currentTarget.value)}>
            {POSITIONS.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </label>
        <label>
          Budget
          <input type="number" min={0} step={100000} inputMode="numeric" value={budget} onInput={(e) => setBudget(e.currentTarget.value)} placeholder="any" />
        </label>
        <label>
          Max age
          <input type="number" min={15} max={45} inputMode="numeric" value={maxAge} onInput={(e) => setMaxAge(e.currentTarget.value)} placeholder="any" />
        </label>
        <button type="submit" disabled={state.s === 'loading'}>
          Recommend
        </button>
      </form>
      {state.s === 'loading' && <Loading what="the recommendation (a few seconds: each candidate's seasons are simulated)" />}
      {state.s === 'error' && <ErrorBox message={state.message} />}
      {state.s === 'ok' && <Candidates data={state.data} />}
    </main>
  );
}

type Warning = Answer['candidates'][number]['warnings'][number];
const warningKey = (w: Warning) => `${w.code}\u0000${w.message}`;

/** The warnings every candidate carries (the season's, not the player's): said once above the table. */
function sharedWarnings(data: Answer): Warning[] {
  const [first, ...rest] = data.candidates;
  if (!first || rest.length === 0) return [];
  return first.warnings.filter((w) => rest.every((c) => c.warnings.some((o) => warningKey(o) === warningKey(w))));
}

function Candidates({ data }: { data: Answer }) {
  const m = (v: number) => formatMoney(v, data.currency);
  if (data.candidates.length === 0) return <p>No player fits: widen the budget or the age.</p>;
  const shared = sharedWarnings(data);
  const sharedKeys = new Set(shared.map(warningKey));
  return (
    <section class="card" aria-labelledby="rec-h">
      <h2 id="rec-h">
        Best {data.position} signings, {data.season} <span class="muted">({data.candidates_considered} considered)</span>
      </h2>
      <Warnings warnings={shared} />
      <ScrollRegion label="Recommended players">
        <table class="recommend-table">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col" class="num">Age</th>
              <th scope="col">Club</th>
              <th scope="col" class="num">Expected fee</th>
              <th scope="col" class="num">Value created</th>
              <th scope="col" class="num">Net value</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {data.candidates.map((c) => (
              <tr key={c.player_id}>
                <th scope="row">
                  <a href={links.player(c.player_id)}>{c.name}</a>
                </th>
                <td class="num">{c.age ?? '–'}</td>
                <td>{c.club_name ?? '–'}</td>
                <td class="num">{m(c.expected_transfer_value)}</td>
                <td class="num">{m(c.total_value_created)}</td>
                <td class="num">{m(c.net_value_created)}</td>
                <td class="reasons">
                  <ul>
                    {c.reasons.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                  <Warnings warnings={c.warnings.filter((w) => !sharedKeys.has(warningKey(w)))} level={4} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
