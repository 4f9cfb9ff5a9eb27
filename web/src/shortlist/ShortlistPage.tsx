import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { useTitle } from '../ui/title';
import { usePickedCurrency } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { ScrollRegion } from '../ui/ScrollRegion';
import { download } from '../ui/download';
import { Show } from '../ui/states';
import { loadShortlist, removeFromShortlist, shortlistCsv, type ShortlistRow } from './data';
import { shortlistRow } from './rows';

type Row = ShortlistRow & { currency: string | null };
const COLUMNS: readonly { key: keyof ShortlistRow; label: string; num?: boolean }[] = [
  { key: 'name', label: 'Player' },
  { key: 'position', label: 'Position' },
  { key: 'age', label: 'Age', num: true },
  { key: 'club', label: 'Club' },
  { key: 'contract_end', label: 'Contract end' },
  { key: 'fee', label: 'Expected fee', num: true },
  { key: 'future_value', label: 'Value in 3 years', num: true },
  { key: 'added_at', label: 'Added' },
];

function compare(a: Row, b: Row, key: keyof ShortlistRow): number {
  const x = a[key], y = b[key];
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

/** The account's shortlist from the server, with each player's figures, sortable and exportable. */
export function ShortlistPage() {
  useTitle('Shortlist');
  const currency = usePickedCurrency();
  const [version, setVersion] = useState(0);
  const list = useApi(async () => Promise.all((await loadShortlist()).map((e) => shortlistRow(e, currency))), [currency, version]);
  const [sort, setSort] = useState<{ key: keyof ShortlistRow; desc: boolean }>({ key: 'added_at', desc: true });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [version]);

  const remove = async (id: string) => {
    try {
      await removeFromShortlist(id);
      setVersion((v) => v + 1);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not remove him.');
    }
  };

  return (
    <main id="main">
      <h1>Shortlist</h1>
      <p class="lead">Players your account keeps an eye on, newest first; every key and every sign-in of the account sees the same list.</p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Show loaded={list} what="the shortlist">
        {(rows) => {
          if (rows.length === 0) return <p>No player yet: open a player and press “Add to shortlist”.</p>;
          const cur = rows.find((r) => r.currency)?.currency ?? 'EUR';
          const sorted = [...rows].sort((a, b) => (sort.desc ? -1 : 1) * compare(a, b, sort.key));
          const money = (v: number | null) => (v === null ? '–' : formatMoney(v, cur));
          return (
            <section class="card">
              <div class="toolbar">
                <button type="button" onClick={() => download('shortlist.csv', shortlistCsv(sorted, cur))}>
                  Export CSV
                </button>
              </div>
              <ScrollRegion label="Shortlist">
                <table class="shortlist-table">
                  <thead>
                    <tr>
                      {COLUMNS.map((c) => (
                        <th key={c.key} scope="col" class={c.num ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                          <button type="button" class="sort" onClick={() => setSort({ key: c.key, desc: sort.key === c.key ? !sort.desc : false })}>
                            {c.label}
                          </button>
                        </th>
                      ))}
                      <th scope="col">Note</th>
                      <th scope="col">
                        <span class="sr-only">Remove</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {sorted.map((r) => (
                      <tr key={r.player_id}>
                        <th scope="row">
                          <a href={links.player(r.player_id)}>{r.name}</a>
                        </th>
                        <td>{r.position ?? '–'}</td>
                        <td class="num">{r.age ?? '–'}</td>
                        <td>{r.club ?? '–'}</td>
                        <td>{r.contract_end ?? '–'}</td>
                        <td class="num">{money(r.fee)}</td>
                        <td class="num">{money(r.future_value)}</td>
                        <td>{r.added_at.slice(0, 10)}</td>
                        <td>{r.note ?? ''}</td>
                        <td>
                          <button type="button" class="remove" aria-label={`Remove ${r.name}`} onClick={() => void remove(r.player_id)}>
                            Remove
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            </section>
          );
        }}
      </Show>
    </main>
  );
}
