/**
 * The model card on the real data: every model trained as `touchline train` trains it (backtests and
 * their calibrations included), its card printed as the tables of docs/models.md; with `--write FILE`
 * the tables between the file's `<!-- card:NAME -->` markers are written anew from it, so the
 * document quotes the figures the API answers. Prints what training and the backtests cost.
 *
 * Then the match model read as a football person would, on the analysis season (2024/25 on the real
 * data, its Premier League named as an operator would name it: last season's clubs without the three
 * relegated, with the three promoted): a few fixtures as GET /v1/match_forecast answers them and the
 * top and bottom of the Premier League forecast; and what one simulated season costs (CPU time of
 * the whole-table simulation and of a two-scenario what-if, a fixed number of runs each).
 *
 * Run: node --import tsx bench/model-card.ts --world-cache FILE --models-cache FILE [--as-of 2024-06-30] [--write docs/models.md] [--no-fixtures]
 *      [--impact JSON]: the impact model's settings (ImpactSettings, e.g. '{"residualWeight":0.7}') instead of
 *      the served ones, to see what a setting does to the league and match backtests
 *      (both caches outside the repository or under .cache/; a models cache of other code is trained anew)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dataDirFromArgs, loadRealWorld, worldCacheFromArgs } from './lib/world.js';
import { modelsCacheFromArgs, trainedModels } from './lib/models.js';
import { cardBlocks, spliceBlocks } from './lib/model-card-markdown.js';
import { withSeasonClubs } from '../src/domain/snapshot.js';
import { matchForecastOf } from '../src/valuation/analysis.js';
import { leagueMatchModel, leagueStrengths, type ImpactSettings } from '../src/valuation/impact/index.js';
import { simulateScenarios } from '../src/valuation/impact/scenarios.js';
import { simulateTable } from '../src/valuation/impact/table.js';
import { leagueForecast } from '../src/valuation/league/forecast.js';

const { values } = parseArgs({
  options: { 'as-of': { type: 'string', default: '2024-06-30' }, write: { type: 'string' }, 'no-fixtures': { type: 'boolean', default: false }, impact: { type: 'string' }, 'world-cache': { type: 'string' }, 'models-cache': { type: 'string' }, data: { type: 'string' } },
});
const { world, dataVersion } = await loadRealWorld(values.data ?? dataDirFromArgs(), true, worldCacheFromArgs());
const c0 = process.cpuUsage();
const settings = values.impact ? { impact: JSON.parse(values.impact) as ImpactSettings } : {};
if (values.impact) console.log(`impact settings ${values.impact} (not the served ones)`);
const { bundle, trainMs, snapshot } = trainedModels(world, dataVersion, values['as-of']!, modelsCacheFromArgs(), settings);
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

if (!values['no-fixtures'] && bundle.impact) {
  const model = bundle.impact;
  const idOf = (name: string) => {
    const c = world.clubs.find((x) => x.name === name);
    if (!c) throw new Error(`no club named ${name}`);
    return c.id;
  };
  // the analysis season's Premier League as an operator would name it (touchline leagues set-clubs)
  const pl = 'PREMIER_LEAGUE';
  const out = new Set(['Luton Town', 'Burnley FC', 'Sheffield United'].map(idOf));
  const named = [...(snapshot.clubsOfLeague.get(pl) ?? [])].filter((c) => !out.has(c)).concat(['Leicester City', 'Ipswich', 'Southampton FC'].map(idOf));
  const next = withSeasonClubs(snapshot, named.map((club_id) => ({ competition_id: pl, season: snapshot.analysisSeason, club_id })), 'model-card-bench');
  const name = (id: string) => next.clubs.get(id)?.name ?? id;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`\n## the match model, ${snapshot.analysisSeason}/${snapshot.analysisSeason + 1} (Premier League clubs named as an operator would)\n`);
  const st = model.strength;
  console.log(`rho ${st.rho.toFixed(3)}, spread ${model.spread}, goal ceiling ${model.ceiling ? `${model.ceiling.level} (sharpness ${model.ceiling.sharpness})` : 'none'}, league spreads ${Object.entries(model.leagues).map(([l, c]) => `${l} ${c.spread ?? 1}`).join(", ")}; home advantage pooled ${st.homeAdvantage.toFixed(3)}, by league: ${Object.entries(st.homeByCompetition ?? {}).map(([c, h]) => `${c} ${h.toFixed(3)}`).join(', ')}, behind closed doors ${st.crowdless.homeOffset >= 0 ? "+" : ""}${st.crowdless.homeOffset.toFixed(3)} (${st.crowdless.matches} matches)\n`);
  console.log('| fixture | home win | draw | away win | expected goals | likeliest scores |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  const fixtures: Array<[string, string, boolean]> = [
    ['Manchester City', 'Ipswich', false], ['Manchester City', 'Southampton FC', false], ['Ipswich', 'Manchester City', false],
    ['Manchester United', 'Manchester City', false], ['Manchester City', 'Manchester United', false], ['Arsenal FC', 'Tottenham Hotspur', false],
    ['Liverpool FC', 'Everton FC', false], ['Real Madrid', 'Atlético de Madrid', false], ['Inter Milan', 'AC Milan', false],
    ['Manchester City', 'Arsenal FC', false], ['Manchester City', 'Arsenal FC', true],
  ];
  for (const [h, a, neutral] of fixtures) {
    const f = matchForecastOf(bundle, next, { homeClubId: idOf(h), awayClubId: idOf(a), neutral });
    const scores = f.likelyScores.slice(0, 3).map((x) => `${x.home}-${x.away} ${pct(x.probability)}`).join(', ');
    console.log(`| ${h} v ${a}${neutral ? ' (neutral)' : ''} | ${pct(f.homeWin)} | ${pct(f.draw)} | ${pct(f.awayWin)} | ${f.expectedGoals.home.toFixed(2)}-${f.expectedGoals.away.toFixed(2)} | ${scores} |`);
  }
  const forecast = leagueForecast(model, next, pl).clubs;
  console.log('\n| Premier League forecast | expected position | expected points | P(first) | P(bottom three) |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const c of [...forecast.slice(0, 4), ...forecast.slice(-4)]) {
    const p = c.positionProbabilities;
    console.log(`| ${name(c.clubId)} | ${c.expectedPosition.toFixed(2)} | ${c.expectedPoints.toFixed(1)} | ${pct(p[0])} | ${pct(p.slice(-3).reduce((x, y) => x + y, 0))} |`);
  }
  // what one simulated season costs: the same work (fixed runs) on the served strengths, CPU time, median of 7
  const s = leagueStrengths(model, next, pl);
  const constants = leagueMatchModel(model, pl);
  const cpuMs = (f: () => void) => {
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const c0 = process.cpuUsage();
      f();
      const c = process.cpuUsage(c0);
      times.push((c.user + c.system) / 1000);
    }
    return times.sort((x, y) => x - y)[3];
  };
  const RUNS = 20_000;
  const table = cpuMs(() => simulateTable({ clubIds: s.clubs, ...constants, attack: s.attack, defence: s.defence }, { seed: 1, runs: RUNS }));
  let seed = 100;
  const stronger = { attack: s.attack.map((x, i) => (i === 0 ? x + 0.1 : x)), defence: s.defence };
  const whatIf = cpuMs(() => simulateScenarios({ clubIds: s.clubs, ...constants, target: s.clubs[0], scenarios: [{ attack: s.attack, defence: s.defence }, stronger] }, { seed: seed++, runs: RUNS }));
  console.log(`\none season simulated, ${s.clubs.length} clubs, ${RUNS} runs, CPU time (median of 7): whole table ${table.toFixed(0)} ms (${(1000 * table / RUNS).toFixed(1)} µs a run); a what-if, two scenarios on a fresh baseline ${whatIf.toFixed(0)} ms`);
}
