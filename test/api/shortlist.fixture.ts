import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { createPlan } from '../../src/access/plans.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The shortlist tests' world: the app, two players, and keys of other accounts. */
export const PATH = '/v1/shortlist';
export const json = (res: { body: string }) => JSON.parse(res.body);

export let t: TestApp;
export let s: Snapshot;
export let players: string[];
/** Another account's key, with all coverage. */
export let otherKey: string;
/** A key on a plan covering one league; `outside` a player of none of its clubs. */
export let limited: string;
export let outside: string;

let seq = 0;
/** A key on a fresh account of its own, so tests do not share a list. */
export async function freshKey(): Promise<string> {
  const email = `scout${++seq}@club.example`;
  await createAccount(t.handle.db, { email, plan: 'shortlist-all' });
  const key = (await createKey(t.handle.db, { email })).api_key;
  await tick();
  return key;
}

async function tick() {
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
}

export function del(playerId: string, key?: string) {
  return t.app.inject({ method: 'DELETE', url: `${PATH}?player_id=${encodeURIComponent(playerId)}`, headers: { 'x-api-key': key ?? t.key } });
}

export async function startShortlistApp(): Promise<void> {
  t = await startTestApp();
  s = t.runtime.world.current();
  players = [...s.players.keys()].sort();
  await createPlan(t.handle.db, { name: 'shortlist-all', all: true });
  otherKey = await freshKey();
  const [league] = [...s.clubsOfLeague.keys()].sort();
  await createPlan(t.handle.db, { name: 'shortlist-one-league', competitions: [league] });
  await createAccount(t.handle.db, { email: 'limited@club.example', plan: 'shortlist-one-league' });
  limited = (await createKey(t.handle.db, { email: 'limited@club.example' })).api_key;
  await tick();
  // A player the one-league plan does not see, found as a client would: player_info answers 403.
  for (const id of players) {
    const res = await t.get(`/v1/player_info?player_id=${id}`, limited);
    if (res.statusCode === 403) {
      outside = id;
      break;
    }
  }
}
