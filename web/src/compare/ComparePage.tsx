import { useApi } from '../api/use-api';
import { BarChart } from '../charts/BarChart';
import { href, links } from '../router';
import { SearchBox } from '../search/SearchBox';
import { usePickedCurrency } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Show } from '../ui/states';
import { useTitle } from '../ui/title';
import { comparedIds, loadCompared, type Compared } from './data';

const MAX = 4;

function go(ids: readonly string[]) {
  location.hash = href('/compare', ids.length ? { players: ids.join(',') } : undefined);
}

/** Up to four players side by side, their ids in the address so a comparison can be shared. */
export function ComparePage({ query }: { query: URLSearchParams }) {
  useTitle('Compare');
  const ids = comparedIds(query);
  const currency = usePickedCurrency();
  const players = useApi(() => Promise.all(ids.map((id) => loadCompared(id, currency))), [ids.join(','), currency]);
  return (
    <main id="main">
      <h1>Compare players</h1>
      <p class="lead">Up to four players side by side: profile, value, expected fee and rating.</p>
      <div class="card compare-add">
        {ids.length < MAX ? (
          <SearchBox label="Add player" placeholder="Type a player's name…" onPick={(r) => r.service_id && !ids.includes(r.service_id) && go([...ids, r.service_id])} />
        ) : (
          <p>Four players at most: remove one to add another.</p>
        )}
      </div>
      {ids.length === 0 ? (
        <p>Add a player to start.</p>
      ) : (
        <Show loaded={players} what="the players">
          {(list) => <Comparison list={list} ids={ids} />}
        </Show>
      )}
    </main>
  );
}

function Comparison({ list, ids }: { list: Compared[]; ids: string[] }) {
  const cur = list[0]?.currency ?? 'EUR';
  const money = (v: number | null) => (v === null ? '–' : formatMoney(v, cur));
  const rows: [string, (p: Compared) => string | number][] = [
    ['Age', (p) => p.age ?? '–'],
    ['Position', (p) => p.position],
    ['Nationality', (p) => p.nationality],
    ['Foot', (p) => p.foot ?? '–'],
    ['Height', (p) => (p.height ? `${p.height} cm` : '–')],
    ['Contract until', (p) => p.contract ?? '–'],
    ['Market value', (p) => money(p.market_value)],
    ['Expected fee', (p) => money(p.fee)],
    ['Rating', (p) => p.rating ?? '–'],
    ['Potential', (p) => p.potential ?? '–'],
  ];
  const maxMoney = Math.max(1, ...list.flatMap((p) => [p.market_value ?? 0, p.fee ?? 0]));
  return (
    <>
      <section class="card" aria-labelledby="cmp-table-h">
        <h2 id="cmp-table-h">Side by side</h2>
        <ScrollRegion label="Compared players">
          <table class="compare-table">
            <thead>
              <tr>
                <td />
                {list.map((p) => (
                  <th key={p.id} scope="col">
                    <a href={links.player(p.id)}>{p.name}</a>{' '}
                    <button type="button" class="remove" aria-label={`Remove ${p.name}`} onClick={() => go(ids.filter((x) => x !== p.id))}>
                      ×
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(([label, get]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {list.map((p) => (
                    <td key={p.id}>{get(p)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
      <section class="card" aria-labelledby="cmp-chart-h">
        <h2 id="cmp-chart-h">Values and ratings</h2>
        <div class="compare-charts">
          <figure class="compare-chart"><figcaption>Market value</figcaption><BarChart title="Market value" bars={list.map((p) => ({ label: p.name, value: p.market_value ?? 0 }))} max={maxMoney} format={(v) => formatMoney(v, cur)} /></figure>
          <figure class="compare-chart"><figcaption>Expected fee</figcaption><BarChart title="Expected fee" bars={list.map((p) => ({ label: p.name, value: p.fee ?? 0 }))} max={maxMoney} format={(v) => formatMoney(v, cur)} /></figure>
          <figure class="compare-chart"><figcaption>Rating</figcaption><BarChart title="Rating" bars={list.map((p) => ({ label: p.name, value: p.rating ?? 0 }))} max={100} format={(v) => String(v)} /></figure>
          <figure class="compare-chart"><figcaption>Potential</figcaption><BarChart title="Potential" bars={list.map((p) => ({ label: p.name, value: p.potential ?? 0 }))} max={100} format={(v) => String(v)} /></figure>
        </div>
      </section>
    </>
  );
}
