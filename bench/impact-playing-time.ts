/**
 * Does sportive impact follow playing time? On the demo world (seed 42, as of 2026-06-30, ratings
 * from our rating model as served), for a sample of clubs: every rated player of the club's squad
 * (his impact at his own club) and a few outside players each, through `sportiveImpact` as the API
 * calls it (adaptive runs).
 *
 * Rating gain of a player at a club: the total rating of the club's nominal best XI in the
 * analysis season with him minus without him (ratings moved one season along the age curve,
 * out-of-position penalties included). It is his rating minus the rating of whoever he displaces,
 * after the XI re-forms around him, and 0 when he would not make the XI.
 *
 * Prints:
 *  - Spearman between playing time x rating gain and the increase in expected position, pooled over
 *    every (player, club) pair and as the mean over clubs; target pooled >= 0.7;
 *  - near-zero playing time (< 0.05): the largest increase (3-season mean and analysis season alone)
 *    and on-field value;
 *  - pairs of one squad where a player rated higher and playing more adds less than the other
 *    beyond simulation error (2 x the summed standard errors): at the same position in the
 *    analysis season (the season his playing time and rating describe; target 0), and, for
 *    information, in the same position group over the 3 seasons (where age moves ratings and a
 *    club's need differs by position).
 *
 * Run: node --import tsx bench/impact-playing-time.ts [--clubs 18] [--outside 6]
 */
import { generateDemoWorld } from '../src/data/demo/index.js';
import { buildSnapshot } from '../src/domain/snapshot.js';
import { POSITION_GROUP } from '../src/domain/positions.js';
import { fitRatingModel, rateAll } from '../src/valuation/rating/index.js';
import { fitImpactModel, sportiveImpact, withModelRatings, type SportiveImpact } from '../src/valuation/impact/index.js';
import { currentSquad, ratedPlayer, squadAt, type RatedPlayer } from '../src/valuation/impact/model.js';
import { bestXi } from '../src/valuation/league/squad.js';
import { spearman } from '../src/valuation/ml/metrics.js';
import { createRng } from '../src/domain/random.js';

const AS_OF = '2026-06-30';
const TARGET = 0.7;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

interface Row {
  club: string;
  player: string;
  rating: number;
  group: string;
  position: string;
  own: boolean;
  pt: number;
  gain: number;
  increase: number;
  se: number;
  /** the analysis season alone */
  increase1: number;
  se1: number;
  eur: number;
}

function main(): void {
  const clubCount = arg('--clubs', 18);
  const outside = arg('--outside', 6);
  let t = performance.now();
  const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
  const base = buildSnapshot(world, AS_OF, 'bench');
  const snap = withModelRatings(base, rateAll(fitRatingModel(base, { seed: 1 }), base));
  const art = fitImpactModel(snap);
  console.log(`demo world, model ratings and impact model: ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const rs = art.settings;
  const season = snap.analysisSeason;
  const xiTotal = (squad: readonly RatedPlayer[]) => {
    const xi = bestXi(squadAt(art.ageCurve, squad, season), { replacementRating: rs.replacementRating });
    return xi.xiRating * xi.picks.length;
  };
  // clubs spread over the leagues: the k-th club of every league in turn
  const leagues = [...snap.clubsOfLeague.keys()].sort();
  const clubs: string[] = [];
  for (let k = 0; clubs.length < clubCount; k++) {
    let added = false;
    for (const l of leagues) {
      const list = snap.clubsOfLeague.get(l)!;
      if (k < list.length && clubs.length < clubCount) { clubs.push(list[k]); added = true; }
    }
    if (!added) break;
  }
  const rated = [...snap.ratings.keys()].filter((id) => ratedPlayer(snap, id, rs) !== null).sort();
  const rng = createRng(11);
  const rows: Row[] = [];
  const times: number[] = [];
  t = performance.now();
  for (const club of clubs) {
    const squad = currentSquad(snap, club, rs);
    const withoutAll = xiTotal(squad);
    const picks = squad.map((p) => p.playerId);
    for (let k = 0; k < outside; k++) {
      const id = rated[rng.int(0, rated.length - 1)];
      if (!picks.includes(id)) picks.push(id);
    }
    for (const id of picks) {
      const own = squad.some((p) => p.playerId === id);
      const him = ratedPlayer(snap, id, rs)!;
      const rest = squad.filter((p) => p.playerId !== id);
      const gain = xiTotal([...rest, him]) - (own ? xiTotal(rest) : withoutAll);
      const t0 = performance.now();
      let r: SportiveImpact;
      try {
        r = sportiveImpact(art, snap, { playerId: id, clubId: club });
      } catch {
        continue;
      }
      times.push(performance.now() - t0);
      rows.push({
        club, player: id, rating: him.rating, group: POSITION_GROUP[him.position], position: him.position, own,
        pt: r.playingTimePercentage, gain: Math.max(0, gain), increase: r.increaseInExpectedPosition,
        se: Math.hypot(r.originalStandardError, r.newStandardError), eur: r.onFieldValueEur,
        increase1: Math.max(0, r.seasons[0].originalExpectedPosition - r.seasons[0].newExpectedPosition),
        se1: Math.hypot(r.seasons[0].originalStandardError, r.seasons[0].newStandardError),
      });
    }
  }
  times.sort((a, b) => a - b);
  console.log(`${rows.length} (player, club) pairs at ${clubs.length} clubs (${rows.filter((r) => r.own).length} at their own club), ` +
    `${((performance.now() - t) / 1000).toFixed(1)} s, p50 ${times[times.length >> 1].toFixed(1)} ms a pair`);

  const pooled = spearman(rows.map((r) => r.pt * r.gain), rows.map((r) => r.increase));
  const perClub: number[] = [];
  for (const club of clubs) {
    const rs2 = rows.filter((r) => r.club === club);
    if (rs2.length >= 5) perClub.push(spearman(rs2.map((r) => r.pt * r.gain), rs2.map((r) => r.increase)));
  }
  const meanClub = perClub.reduce((a, b) => a + b, 0) / perClub.length;
  const ptOnly = spearman(rows.map((r) => r.pt), rows.map((r) => r.increase));
  console.log(`Spearman(playing time x rating gain, increase in expected position), pooled: ${pooled.toFixed(3)} ` +
    `(target >= ${TARGET}: ${pooled >= TARGET ? 'PASS' : 'FAIL'})`);
  console.log(`  mean over clubs: ${meanClub.toFixed(3)} (min ${Math.min(...perClub).toFixed(3)}); playing time alone, pooled: ${ptOnly.toFixed(3)}`);

  const idle = rows.filter((r) => r.pt < 0.05);
  const maxInc = Math.max(0, ...idle.map((r) => r.increase));
  const maxInc1 = Math.max(0, ...idle.map((r) => r.increase1));
  const maxEur = Math.max(0, ...idle.map((r) => r.eur));
  const regulars = rows.filter((r) => r.pt >= 0.5);
  const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : 0; };
  console.log(`playing time < 0.05: n=${idle.length}, largest increase ${maxInc.toFixed(3)} places (analysis season alone ${maxInc1.toFixed(3)}), ` +
    `median ${median(idle.map((r) => r.increase)).toFixed(3)}, largest on-field value EUR ${maxEur.toLocaleString('en')}`);
  console.log(`playing time >= 0.5: n=${regulars.length}, median increase ${median(regulars.map((r) => r.increase)).toFixed(3)} places, ` +
    `median on-field value EUR ${median(regulars.map((r) => r.eur)).toLocaleString('en')}`);

  const violations = (same: (a: Row, b: Row) => boolean, inc: (r: Row) => number, se: (r: Row) => number) => {
    let pairs = 0, count = 0, worstGap = 0, worst = '';
    for (const club of clubs) {
      const list = rows.filter((r) => r.club === club);
      for (const a of list) {
        for (const b of list) {
          if (a === b || !same(a, b) || !(a.rating > b.rating) || !(a.pt >= b.pt)) continue;
          pairs++;
          const gap = inc(b) - inc(a) - 2 * (se(a) + se(b));
          if (gap > 0) {
            count++;
            if (gap > worstGap) {
              worstGap = gap;
              worst = `; worst ${club}: ${a.player} (${a.position} ${a.rating.toFixed(0)}, pt ${a.pt}) +${inc(a).toFixed(3)} < ${b.player} (${b.position} ${b.rating.toFixed(0)}, pt ${b.pt}) +${inc(b).toFixed(3)}`;
            }
          }
        }
      }
    }
    return { pairs, count, worst };
  };
  const v1 = violations((a, b) => a.position === b.position, (r) => r.increase1, (r) => r.se1);
  console.log(`better and playing more, same squad and position, adds less in the analysis season beyond 2 x SE: ${v1.count} of ${v1.pairs} pairs ` +
    `(target 0: ${v1.count === 0 ? 'PASS' : 'FAIL'})${v1.worst}`);
  const v3 = violations((a, b) => a.group === b.group, (r) => r.increase, (r) => r.se);
  console.log(`  for information, same position group over the 3 seasons: ${v3.count} of ${v3.pairs} pairs${v3.worst}`);
}

main();
