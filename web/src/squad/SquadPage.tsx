import { useTitle } from '../ui/title';
import { SquadTable } from './SquadTable';
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { ClubPicker } from '../competitions/ClubPicker';
import { loadPlayers } from '../competitions/data';
import { LeagueForecastLink } from '../competitions/LeagueForecastLink';
import { links } from '../router';
import { SearchBox } from '../search/SearchBox';
import { usePickedCurrency } from '../ui/currency';
import { formatMoney, formatRank } from '../ui/format';
import { ErrorBox, Loading, Show } from '../ui/states';
import { analyseSquad, loadClub, type SquadAnswer } from './data';
import { byLine, POSITIONS } from './lines';
import { applyWhatIf, isUnchanged, removePlayer, setPosition, whatIfFromQuery, whatIfToQuery, type SquadEntry, type WhatIf } from './whatif';
import { ScrollRegion } from '../ui/ScrollRegion';

type Run = { s: 'idle' } | { s: 'loading' } | { s: 'error'; message: string } | { s: 'ok'; answer: SquadAnswer; ran: string };

/** The club's squad by line, a what-if edited in place and kept in the URL, and both analyses side by side. */
export function SquadPage({ id, query }: { id: string; query: URLSearchParams }) {
  const currency = usePickedCurrency();
  const club = useApi(() => loadClub(id), [id]);
  useTitle(club.state === 'ok' ? `${club.data.name} · Squad` : 'Squad');
  const actual = useApi(() => analyseSquad(id, null, currency), [id, currency]);
  const [w, setW] = useState<WhatIf>(() => whatIfFromQuery(query));
  const [names, setNames] = useState<Record<string, string>>({});
  const [run, setRun] = useState<Run>({ s: 'idle' });

  const squad = useMemo(() => (actual.state === 'ok' ? applyWhatIf(actual.data.squad, w) : []), [actual, w]);
  const signature = JSON.stringify(squad.map((e) => [e.player_id, e.position]));

  // The address holds the what-if, so copying it shares it; replaceState keeps Back for real pages.
  useEffect(() => {
    history.replaceState(null, '', links.club(id, whatIfToQuery(w)));
  }, [id, w]);

  const rerun = async () => {
    if (actual.state !== 'ok') return;
    setRun({ s: 'loading' });
    try {
      const answer = await analyseSquad(id, squad, currency);
      setNames((n) => ({ ...n, ...Object.fromEntries(answer.squad.map((e) => [e.player_id, e.name])) }));
      setRun({ s: 'ok', answer, ran: signature });
    } catch (err) {
      setRun({ s: 'error', message: err instanceof Error ? err.message : 'The analysis failed.' });
    }
  };

  // A result in another currency is dropped; the effect below runs the what-if again once the actual squad is back.
  useEffect(() => setRun({ s: 'idle' }), [currency]);

  // A shared what-if opens with its result.
  useEffect(() => {
    if (actual.state === 'ok' && !isUnchanged(w) && run.s === 'idle') void rerun();
    // Once, when the actual squad arrives.
  }, [actual.state]);

  const inActual = new Set(actual.state === 'ok' ? actual.data.squad.map((e) => e.player_id) : []);
  const nameOf = (e: SquadEntry) => e.name ?? names[e.player_id] ?? e.player_id;

  return (
    <main id="main" class="squad">
      <nav aria-label="Breadcrumb" class="crumbs">
        <a href={links.competitions()}>Competitions</a> › <span>{club.state === 'ok' ? club.data.name : 'Club'}</span>
      </nav>
      <h1>{club.state === 'ok' ? club.data.name : club.state === 'error' ? 'Club' : 'Loading…'}</h1>
      {club.state === 'error' && <ErrorBox message={club.message} />}
      {club.state === 'ok' ? <LeagueForecastLink club={{ service_id: club.data.service_id, name: club.data.name }} /> : <p class="page-links" />}
      <Show loaded={actual} what="the squad analysis">
        {(a) => (
          <>
            <Comparison actual={a} run={run} stale={run.s === 'ok' && run.ran !== signature} />
            <div class="actions">
              <button type="button" onClick={rerun} disabled={run.s === 'loading' || isUnchanged(w)}>
                {run.s === 'loading' ? 'Running…' : 'Run what-if'}
              </button>
              <button
                type="button"
                class="secondary"
                disabled={isUnchanged(w)}
                onClick={() => {
                  setW({ remove: [], set: {} });
                  setRun({ s: 'idle' });
                }}
              >
                Back to the actual squad
              </button>
              {!isUnchanged(w) && <p class="hint">This page's address holds the what-if: copy it to share.</p>}
            </div>
            <SquadTable clubId={id} currency={currency} />
            <div class="columns">
              <section class="card" aria-labelledby="squad-h">
                <h2 id="squad-h">
                  What-if squad <span class="muted">({squad.length} players)</span>
                </h2>
                {byLine(squad).map((line) => (
                  <div key={line.name} class="line">
                    <h3>{line.name}</h3>
                    {line.entries.length === 0 ? (
                      <p class="muted">Nobody.</p>
                    ) : (
                      <ul class="squad-list">
                        {line.entries.map((e) => (
                          <li key={e.player_id} class={inActual.has(e.player_id) ? '' : 'added'}>
                            <a href={links.player(e.player_id)}>{nameOf(e)}</a>
                            {!inActual.has(e.player_id) && <span class="badge">new</span>}
                            <select aria-label={`Position of ${nameOf(e)}`} value={e.position} onChange={(ev) => setW(setPosition(w, e.player_id, ev.currentTarget.value))}>
                              {POSITIONS.map((p) => (
                                <option key={p} value={p}>
                                  {p}
                                </option>
                              ))}
                            </select>
                            <button type="button" class="remove" aria-label={`Remove ${nameOf(e)}`} onClick={() => setW(removePlayer(w, e.player_id, inActual.has(e.player_id)))}>
                              Remove
                            </button>
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                ))}
              </section>
              <AddPlayer
                exclude={new Set(squad.map((e) => e.player_id))}
                onAdd={(pid, name, pos) => {
                  setNames((n) => ({ ...n, [pid]: name }));
                  setW(setPosition(w, pid, pos));
                }}
              />
            </div>
          </>
        )}
      </Show>
    </main>
  );
}

function Comparison({ actual, run, stale }: { actual: SquadAnswer; run: Run; stale: boolean }) {
  const m = (v: number) => formatMoney(v, actual.currency);
  const after = run.s === 'ok' ? run.answer : null;
  const rows: Array<{ label: string; before: number; after: number | null; show: (v: number) => string; betterLower?: boolean }> = [
    { label: 'Expected league rank', before: actual.expected_league_rank, after: after?.expected_league_rank ?? null, show: formatRank, betterLower: true },
    { label: 'Squad size', before: actual.squad_size, after: after?.squad_size ?? null, show: String },
    { label: 'Total expected fee', before: actual.total_expected_transfer_fee, after: after?.total_expected_transfer_fee ?? null, show: m },
    { label: 'Total value in 3 years', before: actual.total_future_transfer_value, after: after?.total_future_transfer_value ?? null, show: m },
  ];
  return (
    <section class="card comparison" aria-labelledby="cmp-h" aria-live="polite">
      <h2 id="cmp-h">Actual squad and what-if</h2>
      <ScrollRegion label="Actual squad and what-if">
        <table>
          <thead>
            <tr>
              <th scope="col">
                <span class="sr-only">Measure</span>
              </th>
              <th scope="col" class="num">Actual</th>
              <th scope="col" class="num">What-if</th>
              <th scope="col" class="num">Change</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const d = r.after === null ? null : r.after - r.before;
              // A change that rounds to nothing (-0.0) is no change: no sign, no colour.
              const nil = d === null || !/[1-9]/.test(r.show(Math.abs(d)));
              const good = nil ? '' : (d < 0) === !!r.betterLower ? 'up' : 'down';
              return (
                <tr key={r.label} data-measure={r.label}>
                  <th scope="row">{r.label}</th>
                  <td class="num before">{r.show(r.before)}</td>
                  <td class="num after">{r.after === null ? '—' : r.show(r.after)}</td>
                  <td class={`num change ${good}`}>{d === null ? '—' : nil ? r.show(0) : `${d > 0 ? '+' : ''}${r.show(d)}`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {run.s === 'loading' && <Loading what="the what-if (3-season simulation)" />}
      {run.s === 'error' && <ErrorBox message={run.message} />}
      {stale && <p class="hint">The squad changed since this run: run the what-if again.</p>}
    </section>
  );
}

function AddPlayer({ exclude, onAdd }: { exclude: Set<string>; onAdd: (playerId: string, name: string, position: string) => void }) {
  const ids = useId();
  const [competition, setCompetition] = useState('');
  const [club, setClub] = useState('');
  const [player, setPlayer] = useState('');
  const [position, setPos] = useState('CM');
  const players = useApi(() => (club ? loadPlayers(club).then((a) => a.players) : Promise.resolve([])), [club]);
  const choices = players.state === 'ok' ? players.data.filter((p) => !exclude.has(p.service_id)) : [];
  return (
    <section class="card" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Add a player</h2>
      <div class="find-player">
        <SearchBox
          label="Find a player by name"
          placeholder="Find a player by name…"
          onPick={(r) => {
            if (r.service_id && !exclude.has(r.service_id)) onAdd(r.service_id, r.name, r.position && POSITIONS.includes(r.position) ? r.position : position);
          }}
        />
        <p class="hint">Added at his own position; change it in the squad. Or pick him by club:</p>
      </div>
      <form
        class="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          const p = choices.find((c) => c.service_id === player);
          if (p) {
            onAdd(p.service_id, p.name, position);
            setPlayer('');
          }
        }}
      >
        <ClubPicker
          competition={competition}
          club={club}
          onCompetition={(c) => {
            setCompetition(c);
            setClub('');
            setPlayer('');
          }}
          onClub={(id) => {
            setClub(id);
            setPlayer('');
          }}
        />
        <label for={`${ids}-player`}>
          Player
          <select id={`${ids}-player`} value={player} disabled={!club || players.state !== 'ok'} onChange={(e) => setPlayer(e.currentTarget.value)}>
            <option value="">{club && players.state === 'loading' ? 'Loading…' : 'Choose…'}</option>
            {choices.map((p) => (
              <option key={p.service_id} value={p.service_id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label for={`${ids}-pos`}>
          Position
          <select id={`${ids}-pos`} value={position} onChange={(e) => setPos(e.currentTarget.value)}>
            {POSITIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={!player}>
          Add to the squad
        </button>
        {players.state === 'error' && <ErrorBox message={players.message} />}
      </form>
    </section>
  );
}
