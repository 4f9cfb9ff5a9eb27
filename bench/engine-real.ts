/**
 * The analysis workers on the real data: clubs and players everyone knows, asked through the pool
 * (two workers, each holding its own unpacked world with the fields no task reads let go) and on the
 * calling thread (the main thread's snapshot built from the same rows), printed side by side; any
 * difference between the two is a FAIL.
 *
 * Usage: node --import tsx bench/engine-real.ts --world-cache /tmp/tm-world.json --models-cache /tmp/tm-models.json
 */
import { parseArgs } from 'node:util';
import { snapshotOf } from '../src/domain/snapshot-source.js';
import { AnalysisEngine } from '../src/engine/pool.js';
import { runTask, type Task } from '../src/engine/tasks.js';
import type { RoiResult } from '../src/valuation/analysis.js';
import type { Recommendation } from '../src/valuation/recommend/index.js';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';
import { modelsCacheFromArgs, trainedModels } from './lib/models.js';

// the helpers read these from argv; parseArgs refuses any other option
parseArgs({ options: { data: { type: 'string' }, 'world-cache': { type: 'string' }, 'models-cache': { type: 'string' } } });
const AS_OF = '2024-06-30';
const { world, dataVersion } = await loadRealWorld(dataDirFromArgs(), true, worldCacheFromArgs());
const trained = trainedModels(world, dataVersion, AS_OF, modelsCacheFromArgs());
const { bundle } = trained;
// What the server holds: the source rows (our ratings in them), and the main thread's snapshot built from them as every worker builds its own.
const rated = { ...world, ratings: [...world.ratings.filter((r) => r.source !== 'model'), ...[...trained.snapshot.ratings.values()].flat().filter((r) => r.source === 'model')] };
const source = { world: rated, asOf: AS_OF, dataVersion, ratingsVersion: bundle.version, seasonClubs: [], membershipVersion: 'none' };
const snapshot = snapshotOf(source);
const engineWorld = { snapshot, source, bundle };
const inThread = { snapshot, bundle, rois: new Map<string, RoiResult>() };

const byName = <T extends { name: string }>(rows: Iterable<T>, name: string): T => {
  for (const r of rows) if (r.name === name) return r;
  throw new Error(`not found: ${name}`);
};
const player = (name: string) => (byName(snapshot.players.values(), name) as { id: string }).id;
const club = (name: string) => (byName(snapshot.clubs.values(), name) as { id: string }).id;
const m = (eur: number) => `€${(eur / 1e6).toFixed(1)}M`;

const asks: { label: string; task: Task }[] = [
  { label: 'ROI: Erling Haaland to Arsenal FC', task: { kind: 'roi', playerId: player('Erling Haaland'), clubId: club('Arsenal FC'), feeEur: null, annualWageEur: null } },
  { label: 'ROI: Jude Bellingham to Bayer 04 Leverkusen', task: { kind: 'roi', playerId: player('Jude Bellingham'), clubId: club('Bayer 04 Leverkusen'), feeEur: null, annualWageEur: null } },
  { label: 'impact: Declan Rice at Luton Town', task: { kind: 'impact', playerId: player('Declan Rice'), clubId: club('Luton Town') } },
  { label: 'squad: Manchester City', task: { kind: 'squad', clubId: club('Manchester City'), squad: null } },
  { label: 'forecast: Premier League', task: { kind: 'forecast', league: 'PREMIER_LEAGUE' } },
  {
    label: 'recommend: Arsenal FC, ST',
    task: { kind: 'recommend', clubId: club('Arsenal FC'), position: 'ST', maxFee: null, maxAge: null, competitions: null, limit: 5, coveredClubs: null, annualWageEur: null, minPlayingTimePercentage: 0, sort: 'net_value_created' },
  },
];

function summary(label: string, result: unknown): string {
  if (label.startsWith('ROI')) {
    const x = result as RoiResult;
    return `fee ${m(x.feeEur)}, value in 3 years ${m(x.future.futureValueEur)}, on-field ${m(x.impact.onFieldValueEur)}, playing time ${x.impact.playingTimePercentage}`;
  }
  if (label.startsWith('recommend')) return (result as Recommendation).shortlist.slice(0, 5).map((s) => `${snapshot.players.get(s.player.playerId)?.name} (${m(s.roi.feeEur)})`).join(', ');
  return JSON.stringify(result).slice(0, 160);
}

const engine = new AnalysisEngine({ workers: 2, maxQueue: 100 });
let failed = 0;
try {
  for (const { label, task } of asks) {
    const here = runTask(inThread, task);
    const there = await engine.run(engineWorld, task);
    const same = JSON.stringify(here) === JSON.stringify(there);
    if (!same) failed++;
    console.log(`${same ? 'PASS' : 'FAIL'} ${label}: ${there.ok ? summary(label, there.result) : `${there.code} ${there.message}`}`);
  }
} finally {
  await engine.close();
}
console.log(`${failed === 0 ? 'PASS' : 'FAIL'} ${asks.length - failed} of ${asks.length} answers the same from the workers as on the calling thread`);
