import { useId, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { useApi } from '../api/use-api';
import { loadClubs, loadCompetitions } from '../competitions/data';
import { useTitle } from '../ui/title';
import { competitionName } from '../competitions/names';
import { links } from '../router';
import { POSITIONS } from '../squad/lines';
import { currencyQuery, useCurrency, usePickedCurrency } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { Show } from '../ui/states';
import { DEFAULT_SORT, listQuery, nextSort, type Filter } from './query';
import { ScrollRegion } from '../ui/ScrollRegion';

async function loadList(query: Record<string, string>, currency: string | null) {
  return unwrap(await api.GET('/v1/players', { params: { query: { ...query, ...currencyQuery(currency), limit: '25' } } }));
}

const COLUMNS: ReadonlyArray<{ key: string; label: string; num?: boolean }> = [
  { key: 'name', label: 'Player' },
  { key: 'age', label: 'Age', num: true },
  { key: 'market_value', label: 'Market value', num: true },
  { key: 'expected_transfer_value', label: 'Expected fee', num: true },
  { key: 'rating', label: 'Rating', num: true },
  { key: 'potential', label: 'Potential', num: true },
  { key: 'contract_end_date', label: 'Contract until' },
];

/** The clubs of the chosen competition; any club until one is chosen. */
function ClubField({ competition, value, onChange }: { competition: string; value: string; onChange: (v: string) => void }) {
  const ids = useId();
  const clubs = useApi(() => (competition ? loadClubs(competition) : Promise.resolve([])), [competition]);
  return (
    <label for={`${ids}-club`}>
      Club
      {/* Remade once the clubs arrive: a value set before its option exists would be lost. */}
      <select key={clubs.state} id={`${ids}-club`} value={value} disabled={!competition} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">Any</option>
        {clubs.state === 'ok' && clubs.data.map((c) => <option key={c.service_id} value={c.service_id}>{c.name}</option>)}
      </select>
    </label>
  );
}

/** /v1/players as a form, a sortable table and pages; the address holds all of it, so a list can be shared. */
export function ScoutingPage({ query }: { query: URLSearchParams }) {
  useTitle('Scouting');
  const ids = useId();
  const currency = useCurrency();
  const picked = usePickedCurrency();
  const params = listQuery(query);
  const key = JSON.stringify(params);
  const list = useApi(() => loadList(params, picked), [key, picked]);
  const comps = useApi(loadCompetitions, []);
  const [form, setForm] = useState<Record<string, string>>(() => ({ ...params }));
  const sort = params.sort ?? DEFAULT_SORT;

  const go = (next: Record<string, string>) => {
    location.hash = links.scouting(new URLSearchParams(Object.entries(next).filter(([, v]) => v !== '')));
  };
  const field = (name: Filter) => ({
    id: `${ids}-${name}`,
    value: form[name] ?? '',
    onInput: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  const submit = (e: Event) => {
    e.preventDefault();
    const next = { ...form };
    delete next.cursor;
    go({ ...next, ...(params.sort ? { sort: params.sort } : {}) });
  };

  return (
    <main id="main">
      <h1>Scouting list</h1>
      <form class="card form-grid" onSubmit={submit} aria-label="Filters">
        <label for={`${ids}-competition_id`}>
          Competition
          <select {...field('competition_id')} onChange={(e) => setForm({ ...form, competition_id: e.currentTarget.value, club_id: '' })}>
            <option value="">Any</option>
            {comps.state === 'ok' && comps.data.map((c) => <option key={c} value={c}>{competitionName(c)}</option>)}
          </select>
        </label>
        <ClubField competition={form.competition_id ?? ''} value={form.club_id ?? ''} onChange={(v) => setForm({ ...form, club_id: v })} />
        <fieldset class="positions">
          <legend>Positions</legend>
          {POSITIONS.map((p) => {
            const picked = (form.position ?? '').split(',').filter(Boolean);
            return (
              <label key={p} class="check">
                <input
                  type="checkbox"
                  checked={picked.includes(p)}
                  onChange={(e) => setForm({ ...form, position: (e.currentTarget.checked ? [...picked, p] : picked.filter((x) => x !== p)).join(',') })}
                />
                {p}
              </label>
            );
          })}
        </fieldset>
        <label for={`${ids}-min_age`}>
          Age from
          <input type="number" min={14} max={50} {...field('min_age')} />
        </label>
        <label for={`${ids}-max_age`}>
          Age to
          <input type="number" min={14} max={50} {...field('max_age')} />
        </label>
        <label for={`${ids}-nationality`}>
          Nationality
          <input {...field('nationality')} />
        </label>
        <label for={`${ids}-preferred_foot`}>
          Foot
          <select {...field('preferred_foot')} onChange={(e) => setForm({ ...form, preferred_foot: e.currentTarget.value })}>
            <option value="">Any</option>
            <option>Right</option>
            <option>Left</option>
            <option>Both</option>
          </select>
        </label>
        <label for={`${ids}-min_market_value`}>
          Value from ({currency})
          <input type="number" min={0} {...field('min_market_value')} />
        </label>
        <label for={`${ids}-max_market_value`}>
          Value to ({currency})
          <input type="number" min={0} {...field('max_market_value')} />
        </label>
        <label for={`${ids}-contract_expires_before`}>
          Contract ends by
          <input type="date" {...field('contract_expires_before')} />
        </label>
        <label for={`${ids}-max_expected_transfer_value`}>
          Expected fee at most ({currency})
          <input type="number" min={0} {...field('max_expected_transfer_value')} />
        </label>
        <label for={`${ids}-min_rating`}>
          Rating from
          <input type="number" min={1} max={99} {...field('min_rating')} />
        </label>
        <label for={`${ids}-min_potential`}>
          Potential from
          <input type="number" min={1} max={99} {...field('min_potential')} />
        </label>
        <button type="submit">Show players</button>
      </form>
      <Show loaded={list} what="players">
        {(data) => (
          <section class="card" aria-labelledby={`${ids}-h`}>
            <h2 id={`${ids}-h`}>
              {data.total} player{data.total === 1 ? '' : 's'}
            </h2>
            <ScrollRegion label="Players">
              <table>
                <thead>
                  <tr>
                    {COLUMNS.map((c) => {
                      const dir = sort === c.key ? 'ascending' : sort === `-${c.key}` ? 'descending' : undefined;
                      return (
                        <th key={c.key} scope="col" class={c.num ? 'num' : ''} aria-sort={dir ?? 'none'}>
                          <button type="button" class="sort" onClick={() => go({ ...params, cursor: '', sort: nextSort(sort, c.key) })}>
                            {c.label}
                            {dir === 'ascending' ? ' ▲' : dir === 'descending' ? ' ▼' : ''}
                          </button>
                        </th>
                      );
                    })}
                    <th scope="col">Pos.</th>
                    <th scope="col">Club</th>
                  </tr>
                </thead>
                <tbody>
                  {data.players.map((p) => (
                    <tr key={p.service_id}>
                      <td>
                        <a href={links.player(p.service_id)}>{p.name}</a>
                      </td>
                      <td class="num">{p.age ?? '—'}</td>
                      <td class="num">{p.market_value === null ? '—' : formatMoney(p.market_value, data.currency)}</td>
                      <td class="num">{p.expected_transfer_value === null ? '—' : formatMoney(p.expected_transfer_value, data.currency)}</td>
                      <td class="num">{p.rating ?? '—'}</td>
                      <td class="num">{p.potential ?? '—'}</td>
                      <td>{p.contract_end_date ?? '—'}</td>
                      <td>{p.position}</td>
                      <td>{p.club_id ? <a href={links.club(p.club_id)}>{p.club_name}</a> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            <nav class="pager" aria-label="Pages">
              <button type="button" class="secondary" disabled={!params.cursor} onClick={() => go({ ...params, cursor: '' })}>
                First page
              </button>
              <button type="button" class="secondary" disabled={!params.cursor} onClick={() => history.back()}>
                Previous page
              </button>
              <button type="button" disabled={!data.next_cursor} onClick={() => go({ ...params, cursor: data.next_cursor ?? '' })}>
                Next page
              </button>
            </nav>
          </section>
        )}
      </Show>
    </main>
  );
}
