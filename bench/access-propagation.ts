/**
 * How fast an access change reaches the key caches: a key is revoked through instance A (its own
 * database handle, as its admin channel or a request would do it) and we time, from the moment the
 * revocation returned, until instance B (another handle with its own pool and, when listening, its
 * own LISTEN connection) refuses the key. B tries again at every turn of its event loop, without sleeping.
 * Two instances in one process: the notification still travels through the PostgreSQL server.
 *
 *   notify   B listens (NOTIFY), poll off: what LISTEN alone gives
 *   poll     B polls the access version every 500 ms, no LISTEN: the fallback alone
 *   served   as `touchline serve` runs on PostgreSQL: LISTEN and the 500 ms poll
 * and, for A itself, whether the first request after the change got the new answer (read your writes).
 *
 * Usage: npx tsx bench/access-propagation.ts --pg postgres://postgres@127.0.0.1:5432/NAME [--rounds 100]
 *   A scratch database is created next to the one named and dropped at the end.
 */
import { parseArgs } from 'node:util';
import { createAccount } from '../src/access/accounts.js';
import { createKeyAuthenticator, type DbKeyAuthenticator } from '../src/access/authenticator.js';
import { createKey, revokeKey } from '../src/access/keys.js';
import { createPlan } from '../src/access/plans.js';
import { migrateToLatest, openDatabase } from '../src/data/db.js';
import { createScratchDatabase } from '../test/helpers/server-process.js';

const { values } = parseArgs({ options: { pg: { type: 'string', default: '' }, rounds: { type: 'string', default: '100' } } });
if (!values.pg) {
  console.log('skipped: give --pg postgres://… (LISTEN/NOTIFY needs PostgreSQL; the embedded database is one process)');
  process.exit(0);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10_000) throw new Error('--rounds must be a whole number from 1 to 10000');

const scratch = await createScratchDatabase(values.pg, `propagation_${process.pid}`);
const a = await openDatabase({ url: scratch.url });
const b = await openDatabase({ url: scratch.url });
const turn = () => new Promise<void>((r) => setImmediate(r));

try {
  await migrateToLatest(a.db);
  await createPlan(a.db, { name: 'all', all: true });
  const email = 'bench@propagation.test';
  await createAccount(a.db, { email, plan: 'all' });
  const onA = await createKeyAuthenticator(a.db, { pollMs: 3_600_000 });

  const modes: Array<[string, { pollMs: number; listen: boolean }]> = [
    ['notify', { pollMs: 3_600_000, listen: true }],
    ['poll', { pollMs: 500, listen: false }],
    ['served', { pollMs: 500, listen: true }],
  ];
  const stale = { onA: 0, rounds: 0 };
  for (const [mode, o] of modes) {
    const onB: DbKeyAuthenticator = await createKeyAuthenticator(b.db, { pollMs: o.pollMs, listenUrl: o.listen ? scratch.url : undefined });
    const lags: number[] = [];
    const n = mode === 'poll' ? Math.min(rounds, 20) : rounds;
    for (let i = 0; i < n; i++) {
      const k = await createKey(a.db, { email });
      if (!(await onA.authenticate(k.api_key)).ok || !(await onB.authenticate(k.api_key)).ok) throw new Error('a new key was refused');
      await revokeKey(a.db, { keyId: k.key_id });
      const t0 = performance.now();
      stale.rounds++;
      if ((await onA.authenticate(k.api_key)).ok) stale.onA++;
      while ((await onB.authenticate(k.api_key)).ok) {
        if (performance.now() - t0 > 10_000) throw new Error(`${mode}: B still accepts the key after 10 s`);
        await turn();
      }
      lags.push(performance.now() - t0);
    }
    await onB.close();
    lags.sort((p, q) => p - q);
    const q = (f: number) => lags[Math.min(lags.length - 1, Math.floor(f * lags.length))].toFixed(1);
    console.log(`${mode.padEnd(6)} B refused the revoked key after: median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms (${n} rounds)`);
  }
  await onA.close();
  console.log(`A (where the change was made): the first request after the change returned got the old answer in ${stale.onA} of ${stale.rounds} rounds`);
} finally {
  await a.close();
  await b.close();
  await scratch.drop();
}
