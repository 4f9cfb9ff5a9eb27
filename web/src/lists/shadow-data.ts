import { api, unwrap } from '../api/client';

/** The saved shadow squad; null when none is saved yet, 'no-org' for an account without an organisation. */
export async function loadShadowSquad() {
  const r = await api.GET('/v1/org/shadow_squad');
  if (r.response.status === 404) return null;
  if (r.response.status === 403) return 'no-org' as const;
  return unwrap(r);
}
export type ShadowSquad = NonNullable<Exclude<Awaited<ReturnType<typeof loadShadowSquad>>, 'no-org'>>;

export async function saveShadowSquad(body: ShadowSquad) {
  return unwrap(await api.PUT('/v1/org/shadow_squad', { body }));
}

export async function analyseShadowSquad() {
  return unwrap(await api.POST('/v1/org/shadow_squad/analysis', {}));
}
export type ShadowAnalysis = Awaited<ReturnType<typeof analyseShadowSquad>>;

export interface PlannedPlayer {
  readonly player_id: string;
  readonly name: string;
  readonly position: string;
  readonly signing: boolean;
}

/**
 * The planned squad as the analysis simulates it: the club's actual squad without the players sold,
 * with the targets at their positions.
 */
export async function plannedSquad(q: ShadowSquad): Promise<{ planned: PlannedPlayer[]; actual: { player_id: string; name: string }[] }> {
  const actual = unwrap(await api.POST('/v1/squad_analysis', { body: { club_id: q.club_id } })).squad;
  const sold = new Set(q.sell.map((s) => s.player_id));
  const kept = actual.filter((p) => !sold.has(p.player_id)).map((p) => ({ player_id: p.player_id, name: p.name, position: p.position, signing: false }));
  const targets = await Promise.all(
    q.targets
      .filter((t) => !kept.some((k) => k.player_id === t.player_id))
      .map(async (t) => {
        // His position as the analysis takes it (player_info's), his name from his profile.
        const [info, profile] = await Promise.all([
          api.GET('/v1/player_info', { params: { query: { player_id: t.player_id } } }).then(unwrap),
          api.POST('/v1/query_player', { body: { service_id: t.player_id } }).then(unwrap),
        ]);
        return { player_id: t.player_id, name: profile.name, position: info.position, signing: true };
      }),
  );
  return { planned: [...kept, ...targets], actual: actual.map((p) => ({ player_id: p.player_id, name: p.name })) };
}
