/**
 * The demo world's market as a football person reads it at first sight, measured as the scouting list
 * shows it (test/helpers/market-figures.ts, printed beside the real data by bench/demo-world.ts): who
 * the most valuable players are, how value falls with age, that players at a club hold a running
 * contract, and that the money sits with the best clubs. The world the API serves (seed 42) and
 * another one are held to the same bounds.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DemoWorld } from '../../src/data/demo/world.js';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { marketFigures, type MarketFigures, shapeDistance, spearman } from '../helpers/market-figures.js';

const AS_OF = '2026-06-30';

/**
 * The real data's value by age as of 2024-06-30 (bench/demo-world.ts on the shared Transfermarkt copy):
 * [age, median, 90th percentile], each relative to its peak (the highest of three ages in a row).
 */
const REAL_SHAPE: readonly (readonly [number, number, number])[] = [
  [17, 0.12, 0.2], [18, 0.16, 0.22], [19, 0.16, 0.27], [20, 0.16, 0.27], [21, 0.27, 0.52], [22, 0.44, 0.64], [23, 0.55, 0.8],
  [24, 0.82, 0.98], [25, 0.82, 0.96], [26, 1.09, 1.06], [27, 1.09, 0.96], [28, 0.82, 0.85], [29, 0.82, 0.64], [30, 0.76, 0.53],
  [31, 0.76, 0.53], [32, 0.44, 0.35], [33, 0.35, 0.19], [34, 0.22, 0.13], [35, 0.22, 0.15], [36, 0.16, 0.07], [37, 0.16, 0.07],
  [38, 0.16, 0.14],
];
const real = REAL_SHAPE.map(([age, medianRel, p90Rel]) => ({ age, medianRel, p90Rel }));

for (const seed of [42, 3]) {
  describe(`demo world market (seed ${seed}, as of ${AS_OF})`, () => {
    const generator = new DemoWorld({ seed, asOf: AS_OF });
    const world = generator.generate();
    const f: MarketFigures = marketFigures(buildSnapshot(world, AS_OF, 'test'));
    const top = `top 100 ages ${f.top100.p10}/${f.top100.median}/${f.top100.p90}`;

    test('the 100 most valuable players are mostly 21-29, at most two aged 33 or more', () => {
      assert.ok(f.top100.ages.length === 100);
      assert.ok(f.top100.p10 >= 20 && f.top100.p10 <= 23, top);
      assert.ok(f.top100.median >= 24 && f.top100.median <= 26, top);
      assert.ok(f.top100.p90 <= 29, top);
      const prime = f.top100.ages.filter((a) => a >= 21 && a <= 29).length;
      assert.ok(prime >= 85, `${prime} of the top 100 aged 21-29`);
      assert.ok(f.top100.aged33Plus <= 2, `${f.top100.aged33Plus} of the top 100 aged 33 or more`);
      const old = f.old30m.map((p) => `${p.name} (${p.age}, ${p.valueEur})`).join(', ');
      assert.ok(f.old30m.length <= 2, `aged 33 or more and worth 30M or more: ${old}`);
    });

    test('value follows football\'s age curve: a peak in the mid-twenties, old players rarely worth much', () => {
      assert.ok(f.peakAge >= 24 && f.peakAge <= 28, `median value peaks at ${f.peakAge}`);
      for (const r of f.byAge) {
        if (r.n < 5 || r.age < 33) continue;
        assert.ok(r.p90Rel <= (r.age >= 35 ? 0.15 : 0.3), `90th percentile at ${r.age} is ${r.p90Rel.toFixed(2)} of the peak's`);
      }
      const d = shapeDistance(f.byAge, real);
      assert.ok(d.median <= 0.4 && d.p90 <= 0.35, `shape distance from the real data: median ${d.median.toFixed(2)}, p90 ${d.p90.toFixed(2)}`);
    });

    test('a player at a club holds a contract that runs to the as-of date or beyond', () => {
      const ended = f.contractEnded.slice(0, 5).map((p) => `${p.name} (${p.age}, ended ${p.contractEnd})`).join(', ');
      assert.ok(f.contractEnded.length <= 5, `${f.contractEnded.length} of ${f.listed} at a club with an ended contract: ${ended}`);
      assert.ok(f.valued === f.listed, 'everyone at a club has a market value');
    });

    test('the best clubs hold the most valuable squads, promoted clubs the least', () => {
      const q = new Map(generator.clubs.map((c) => [c.row.id, c.q]));
      for (const l of f.leagues) {
        // Budget level (what a club can afford) against the value of the squad it holds.
        const rho = spearman(l.clubs.map((c) => q.get(c.clubId) ?? 0), l.clubs.map((c) => c.squadValueEur));
        assert.ok(rho >= 0.8, `${l.competitionId}: budget and squad value, Spearman ${rho.toFixed(2)}`);
      }
      // One season's table is noisier than the budget, as in the real data (0.72 to 0.93 by league).
      const table = f.leagues.map((l) => l.spearman).sort((a, b) => a - b)[Math.floor(f.leagues.length / 2)];
      assert.ok(table >= 0.6, `table and squad value, median Spearman over the leagues ${table.toFixed(2)}`);
      assert.ok(f.rankBands[0].rel >= 1.6, `the top four hold ${f.rankBands[0].rel.toFixed(2)} of a median squad`);
      assert.ok(f.rankBands[f.rankBands.length - 1].rel <= 0.6, 'the bottom of the table holds the least');
      assert.equal(f.promoted.length, 3, 'three clubs promoted into the top flight');
      for (const p of f.promoted) assert.ok(p.valueRank >= p.of - 5, `promoted ${p.name}: squad value rank ${p.valueRank} of ${p.of}`);
    });
  });
}
