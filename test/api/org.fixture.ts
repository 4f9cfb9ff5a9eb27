import { createAccount } from '../../src/access/accounts.js';
import { createKey } from '../../src/access/keys.js';
import { addMemberByName, createOrganisation } from '../../src/access/organisations.js';
import { createPlan } from '../../src/access/plans.js';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** The organisation tests' world: one organisation (owner, scout, viewer) and an account outside it, each with a key. */
export const json = (res: { body: string }) => JSON.parse(res.body);

export let t: TestApp;
export let s: Snapshot;
export let players: string[];
export const keys: Record<'owner' | 'scout' | 'viewer' | 'outsider', string> = { owner: '', scout: '', viewer: '', outsider: '' };
export const ORG = 'Harbour FC recruitment';
export const email = (who: string) => `${who}@harbour.example`;

let seq = 0;
/** An account on the all-coverage plan with a key, in no organisation. */
export async function newAccount(prefix = 'extra'): Promise<{ email: string; key: string }> {
  const e = email(`${prefix}${++seq}`);
  await createAccount(t.handle.db, { email: e, plan: 'org-all' });
  const key = (await createKey(t.handle.db, { email: e })).api_key;
  await tick();
  return { email: e, key };
}

export async function tick() {
  await (t.runtime.deps.authenticator as unknown as { tick(): Promise<void> }).tick();
}

function send(method: 'PUT' | 'DELETE', url: string, key: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
export const put = (url: string, body: unknown, key: string) => send('PUT', url, key, body);
export const del = (url: string, key: string) => send('DELETE', url, key);

export async function startOrgApp(): Promise<void> {
  t = await startTestApp();
  s = t.runtime.world.current();
  players = [...s.players.keys()].sort();
  await createPlan(t.handle.db, { name: 'org-all', all: true });
  for (const who of ['owner', 'scout', 'viewer', 'outsider'] as const) {
    await createAccount(t.handle.db, { email: email(who), plan: 'org-all' });
    keys[who] = (await createKey(t.handle.db, { email: email(who) })).api_key;
  }
  await createOrganisation(t.handle.db, { name: ORG, owner: email('owner') });
  await addMemberByName(t.handle.db, { name: ORG, email: email('scout'), role: 'scout' });
  await addMemberByName(t.handle.db, { name: ORG, email: email('viewer'), role: 'viewer' });
  await tick();
}
