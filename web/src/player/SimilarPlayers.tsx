import { api, unwrap } from '../api/client';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { currencyQuery } from '../ui/currency';
import { formatMoney } from '../ui/format';
import { ScrollRegion } from '../ui/ScrollRegion';
import { Show } from '../ui/states';

async function loadSimilar(playerId: string, currency: string | null) {
  return unwrap(await api.GET('/v1/similar_players', { params: { query: { player_id: playerId, limit: '8', ...currencyQuery(currency) } } }));
}

/** Players of today like him (GET /v1/similar_players), one row per man, with what they share. */
export function SimilarPlayers({ id, currency }: { id: string; currency: string | null }) {
  const similar = useApi(() => loadSimilar(id, currency), [id, currency]);
  return (
    <section class="card" aria-labelledby="similar-h">
      <h2 id="similar-h">Similar players</h2>
      <Show loaded={similar} what="similar players">
        {(s) => {
          const seen = new Set<string>();
          const rows = s.players.filter((p) => !seen.has(p.service_id) && Boolean(seen.add(p.service_id)));
          if (rows.length === 0) return <p>No similar player found.</p>;
          return (
            <ScrollRegion label="Players like him">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Age</th>
                    <th scope="col">Pos.</th>
                    <th scope="col">Club</th>
                    <th scope="col" class="num">Expected fee</th>
                    <th scope="col">In common</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((p) => (
                    <tr key={p.service_id}>
                      <th scope="row">
                        <a href={links.player(p.service_id)}>{p.name}</a>
                      </th>
                      <td>{p.age ?? '–'}</td>
                      <td>{p.position}</td>
                      <td>{p.club_name ?? '–'}</td>
                      <td class="num">{p.expected_transfer_value === null ? '–' : formatMoney(p.expected_transfer_value, s.currency)}</td>
                      <td>{p.shared_traits.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          );
        }}
      </Show>
    </section>
  );
}
