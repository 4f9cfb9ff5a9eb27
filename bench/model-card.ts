/**
 * The model card on the real data: every model trained as `touchline train` trains it (backtests and
 * their calibrations included), its card printed as the tables of docs/models.md; with `--write FILE`
 * the tables between the file's `<!-- card:NAME -->` markers are written anew from it, so the
 * document quotes the figures the API answers. Prints what training and the backtests cost.
 *
 * Run: node --import tsx bench/model-card.ts --world-cache FILE --models-cache FILE [--as-of 2024-06-30] [--write docs/models.md]
 *      (both caches outside the repository or under .cache/; a models cache of other code is trained anew)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';
import { modelsCacheFromArgs, trainedModels } from './lib/models.js';
import { cardBlocks, spliceBlocks } from './lib/model-card-markdown.js';

const { values } = parseArgs({
  options: { 'as-of': { type: 'string', default: '2024-06-30' }, write: { type: 'string' }, 'world-cache': { type: 'string' }, 'models-cache': { type: 'string' }, data: { type: 'string' } },
});
const { world, dataVersion } = await loadRealWorld(values.data ?? dataDirFromArgs(), true, worldCacheFromArgs());
const c0 = process.cpuUsage();
const { bundle, trainMs } = trainedModels(world, dataVersion, values['as-of']!, modelsCacheFromArgs());
const cpu = process.cpuUsage(c0);
const card = bundle.card;
if (!card) throw new Error('the models carry no card');
console.log(trainMs === null
  ? `models ${bundle.version} from the cache (backtests took ${card.backtest_seconds} s when trained)`
  : `trained in ${(trainMs / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU: fits ${Object.entries(bundle.stats.fitMs).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}; backtests ${card.backtest_seconds} s`);
const blocks = cardBlocks(card);
for (const [name, block] of Object.entries(blocks)) console.log(`\n## ${name}\n\n${block}`);
if (values.write) {
  const { doc, written } = spliceBlocks(readFileSync(values.write, 'utf8'), blocks);
  writeFileSync(values.write, doc);
  console.log(`\n${values.write}: wrote ${written.join(', ') || 'nothing (no card markers)'}`);
}
