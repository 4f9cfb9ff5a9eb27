import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { byLine } from '../squad/lines';
import { formatMoney, formatRank } from '../ui/format';
import { Show } from '../ui/states';
import { useTitle } from '../ui/title';
import { failureText, loadMembers } from './data';
import { analyseShadowSquad, loadShadowSquad, plannedSquad, saveShadowSquad, type ShadowSquad } from './shadow-data';

/** The organisation's shadow squad: the planned squad by position, its money and league place beside it, and the plan to edit. */
export function ShadowSquadPage() {
  useTitle('Shadow squad');
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const saved = useApi(() => loadShadowSquad(), [version]);
  const org = useApi(() => loadMembers(), []);
  const writable = !(org.state === 'ok' && org.data?.role === 'viewer');
  const save = async (q: ShadowSquad) => {
    setError(null);
    try {
      await saveShadowSquad(q);
      setVersion((v) => v + 1);
    } catch (err) {
      setError(failureText(err));
    }
  };
  return (
    <main id="main">
      <h1>Shadow squad</h1>
      <p class="lead">
        The players your organisation plans to sell and sign for one club, simulated as a squad what-if for next season. <a href={links.lists()}>Lists</a>
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Show loaded={saved} what="the shadow squad">
        {(q) =>
          q === 'no-org' ? (
            <p>The shadow squad belongs to an organisation; your account is in none.</p>
          ) : q === null ? (
            writable ? <StartForm onSave={save} /> : <p>No shadow squad saved yet.</p>
          ) : (
            <Plan key={version} q={q} writable={writable} onSave={save} />
          )
        }
      </Show>
    </main>
  );
}

function StartForm({ onSave }: { onSave: (q: ShadowSquad) => Promise<void> }) {
  const [club, setClub] = useState('');
  return (
    <form
      class="card inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (club.trim()) void onSave({ club_id: club.trim(), sell: [], targets: [] });
      }}
    >
      <label>
        Club id
        <input value={club} placeholder="C…" onInput={(e) => setClub(e.currentTarget.value)} />
      </label>
      <button type="submit">Start the shadow squad</button>
    </form>
  );
}

const num = (s: string) => Math.max(0, Number(s.replace(/[^\d.]/g, '')) || 0);

function Plan({ q, writable, onSave }: { q: ShadowSquad; writable: boolean; onSave: (q: ShadowSquad) => Promise<void> }) {
  const squad = useApi(() => plannedSquad(q), [q]);
  const analysis = useApi(() => analyseShadowSquad(), [q]);
  const [sale, setSale] = useState({ player_id: '', fee: '' });
  const [target, setTarget] = useState({ player_id: '', fee: '', wage: '' });
  return (
    <>
      <div class="columns">
        <section class="card" aria-labelledby="planned-h">
          <h2 id="planned-h">Planned squad by position</h2>
          <Show loaded={squad} what="the planned squad">
            {({ planned }) => (
              <div class="depth">
                {byLine(planned).map((line) => (
                  <div key={line.name} class="depth-line">
                    <h3>{line.name}</h3>
                    <ul>
                      {[...new Set(line.entries.map((p) => p.position))].map((pos) => (
                        <li key={pos}>
                          <span class="depth-pos">{pos}</span>
                          <span class="depth-names">
                            {line.entries
                              .filter((p) => p.position === pos)
                              .map((p) => (
                                <span key={p.player_id} class={p.signing ? 'signing' : undefined}>
                                  {p.name}
                                  {p.signing && <span class="muted"> (new)</span>}
                                </span>
                              ))}
                          </span>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            )}
          </Show>
        </section>
        <section class="card" aria-labelledby="money-h">
          <h2 id="money-h">Money and league place</h2>
          <Show loaded={analysis} what="the analysis">
            {(a) => {
              const m = (v: number) => formatMoney(v, a.currency);
              return (
                <dl class="facts">
                  <dt>Expected place {a.season}</dt>
                  <dd>
                    {formatRank(a.original_expected_position)} → <strong>{formatRank(a.new_expected_position)}</strong>
                  </dd>
                  <dt>Fees in</dt>
                  <dd>{m(a.fees_in)}</dd>
                  <dt>Fees out</dt>
                  <dd>{m(a.fees_out)}</dd>
                  <dt>Wages, 3 years</dt>
                  <dd>{m(a.wages_three_years)}</dd>
                  <dt>Squad value in 3 years</dt>
                  <dd>{m(a.squad_value_in_three_years)}</dd>
                </dl>
              );
            }}
          </Show>
        </section>
      </div>
      <section class="card" aria-labelledby="plan-h">
        <h2 id="plan-h">The plan (EUR)</h2>
        <h3>To sell</h3>
        <ul class="members">
          {q.sell.map((s) => (
            <li key={s.player_id}>
              <a href={links.player(s.player_id)}>{squad.state === 'ok' ? (squad.data.actual.find((p) => p.player_id === s.player_id)?.name ?? s.player_id) : s.player_id}</a>
              <span>{formatMoney(s.asking_fee, 'EUR')}</span>
              {writable && (
                <button type="button" class="remove" aria-label={`Keep ${s.player_id}`} onClick={() => void onSave({ ...q, sell: q.sell.filter((x) => x !== s) })}>
                  Keep
                </button>
              )}
            </li>
          ))}
        </ul>
        {writable && squad.state === 'ok' && (
          <form class="inline-form" onSubmit={(e) => { e.preventDefault(); if (sale.player_id) void onSave({ ...q, sell: [...q.sell, { player_id: sale.player_id, asking_fee: num(sale.fee) }] }); }}>
            <label>
              Sell
              <select value={sale.player_id} onChange={(e) => setSale({ ...sale, player_id: e.currentTarget.value })}>
                <option value="">Pick a player</option>
                {squad.data.actual.filter((p) => !q.sell.some((s) => s.player_id === p.player_id)).map((p) => (
                  <option key={p.player_id} value={p.player_id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Asking fee
              <input inputMode="numeric" value={sale.fee} onInput={(e) => setSale({ ...sale, fee: e.currentTarget.value })} />
            </label>
            <button type="submit">Add sale</button>
          </form>
        )}
        <h3>To sign</h3>
        <ul class="members">
          {q.targets.map((t) => (
            <li key={t.player_id}>
              <a href={links.player(t.player_id)}>{squad.state === 'ok' ? (squad.data.planned.find((p) => p.player_id === t.player_id)?.name ?? t.player_id) : t.player_id}</a>
              <span>
                {formatMoney(t.fee, 'EUR')} · {formatMoney(t.annual_wage, 'EUR')} a year
              </span>
              {writable && (
                <button type="button" class="remove" aria-label={`Drop ${t.player_id}`} onClick={() => void onSave({ ...q, targets: q.targets.filter((x) => x !== t) })}>
                  Drop
                </button>
              )}
            </li>
          ))}
        </ul>
        {writable && (
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (target.player_id.trim()) void onSave({ ...q, targets: [...q.targets, { player_id: target.player_id.trim(), fee: num(target.fee), annual_wage: num(target.wage) }] });
            }}
          >
            <label>
              Target player id
              <input value={target.player_id} placeholder="P…" onInput={(e) => setTarget({ ...target, player_id: e.currentTarget.value })} />
            </label>
            <label>
              Fee
              <input inputMode="numeric" value={target.fee} onInput={(e) => setTarget({ ...target, fee: e.currentTarget.value })} />
            </label>
            <label>
              Wage a year
              <input inputMode="numeric" value={target.wage} onInput={(e) => setTarget({ ...target, wage: e.currentTarget.value })} />
            </label>
            <button type="submit">Add target</button>
          </form>
        )}
      </section>
    </>
  );
}
