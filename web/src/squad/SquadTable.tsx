import { api, unwrap } from '../api/client';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { currencyQuery } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Show } from '../ui/states';
import { LINES } from './lines';

async function loadSquadFigures(clubId: string, currency: string | null) {
  return unwrap(await api.GET('/v1/players', { params: { query: { club_id: clubId, sort: '-rating', limit: '100', ...currencyQuery(currency) } } }));
}

type Figures = Awaited<ReturnType<typeof loadSquadFigures>>;

/** The club's players with age, value, contract and rating, and a depth chart of them by position. */
export function SquadTable({ clubId, currency }: { clubId: string; currency: string | null }) {
  const figures = useApi(() => loadSquadFigures(clubId, currency), [clubId, currency]);
  return (
    <Show loaded={figures} what="the squad's figures">
      {(f) => (
        <div class="columns">
          <PlayersTable f={f} />
          <DepthChart f={f} />
        </div>
      )}
    </Show>
  );
}

function PlayersTable({ f }: { f: Figures }) {
  const m = (v: number | null) => (v === null ? '–' : formatMoney(v, f.currency));
  return (
    <section class="card" aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <ScrollRegion label="The club's players">
        <table class="squad-table">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Pos.</th>
              <th scope="col" class="num">Age</th>
              <th scope="col" class="num">Value</th>
              <th scope="col">Contract</th>
              <th scope="col" class="num">Rating</th>
            </tr>
          </thead>
          <tbody>
            {f.players.map((p) => (
              <tr key={p.service_id}>
                <th scope="row">
                  <a href={links.player(p.service_id)}>{p.name}</a>
                </th>
                <td>{p.position}</td>
                <td class="num">{p.age ?? '–'}</td>
                <td class="num">{m(p.market_value)}</td>
                <td>{p.contract_end_date?.slice(0, 4) ?? '–'}</td>
                <td class="num">{p.rating ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

/** Each line's positions with their players, best rated first: where the club is thin shows at once. */
function DepthChart({ f }: { f: Figures }) {
  return (
    <section class="card" aria-labelledby="depth-h">
      <h2 id="depth-h">Depth chart</h2>
      <div class="depth">
        {[...LINES].reverse().map((line) => (
          <div key={line.name} class="depth-line">
            <h3>{line.name}</h3>
            <ul>
              {line.positions.map((pos) => {
                const at = f.players.filter((p) => p.position === pos);
                if (at.length === 0) return null;
                return (
                  <li key={pos}>
                    <span class="depth-pos">{pos}</span>
                    <span class="depth-names">
                      {at.map((p, i) => (
                        <span key={p.service_id} class={i === 0 ? 'first' : undefined}>
                          {p.name} {p.rating !== null && <span class="muted">({p.rating})</span>}
                        </span>
                      ))}
                    </span>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
