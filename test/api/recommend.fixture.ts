import assert from 'node:assert/strict';
import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { ratedPlayer } from '../../src/valuation/impact/model.js';
import type { RecommendedCandidate } from '../../src/http/present/recommend.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The recommendation tests' world: the app, a signing club, a one-league key, and the first answer. */
export const json = (res: { body: string }) => JSON.parse(res.body);
export const PATH = '/v1/recommend_signings';

export type Candidate = RecommendedCandidate;

export let t: TestApp;
export let s: Snapshot;
/** The signing club: the last club of the first league; `league` its league, `other` another league. */
export let club: string;
export let league: string;
export let other: string;
export let noLeague: string;
/** A key on a plan covering `league` alone. */
export let limited: string;
export let first: { candidates_considered: number; candidates: Candidate[] };
export const POSITION = 'CB';

/** A request of the tests; with no minimum playing time unless given, so every eligible player is considered. */
export async function recommend(body: Record<string, unknown>, key?: string) {
  const res = await t.post(PATH, { club_id: club, position: POSITION, min_playing_time_percentage: 0, ...body }, key);
  assert.equal(res.statusCode, 200, res.body);
  return json(res) as { club_id: string; position: string; season: string; currency: string; candidates_considered: number; candidates: Candidate[] };
}

/** Players at a club now, with analysis data and a rating the impact model uses, at the position, not at the club. */
export function eligible(position: string, keep: (facts: ReturnType<typeof playerFacts>) => boolean = () => true): string[] {
  const bundle = t.runtime.models.current()!;
  const own = new Set(s.squads.get(club) ?? []);
  return [...s.players.values()].filter((p) => {
    if (!p.analysis_available || own.has(p.id) || !ratedPlayer(s, p.id, bundle.impact!.settings)) return false;
    const f = playerFacts(s, p);
    return f.inWorldNow && f.position === position && f.currentTeamId !== club && f.owningClubId !== club && keep(f);
  }).map((p) => p.id);
}

/** Ordered by `field` highest first (a null last), ties by player id. */
export function assertOrdered(list: Candidate[], field: keyof Candidate = 'net_value_created'): void {
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1], b = list[i];
    const ra = (a[field] as number | null) ?? -Infinity, rb = (b[field] as number | null) ?? -Infinity;
    assert.ok(ra > rb || (ra === rb && a.player_id < b.player_id), `order by ${field} at ${i}: ${JSON.stringify([a, b])}`);
  }
}

export async function startRecommendApp(): Promise<void> {
  t = await startTestApp();
  s = t.runtime.world.current();
  [league, other] = [...s.clubsOfLeague.keys()].sort();
  const clubs = s.clubsOfLeague.get(league)!;
  club = clubs[clubs.length - 1];
  noLeague = [...s.clubs.keys()].sort().find((id) => !s.analysisLeagueOfClub.has(id))!;
  await createPlan(t.handle.db, { name: 'recommend-one-league', competitions: [league] });
  await createAccount(t.handle.db, { email: 'director@club.example', plan: 'recommend-one-league' });
  limited = (await createKey(t.handle.db, { email: 'director@club.example' })).api_key;
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
  first = await recommend({ limit: 25 });
}
