import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../../src/data/demo/index.js';
import { buildSnapshot, type Snapshot } from '../../../src/domain/snapshot.js';
import { POSITION_GROUP } from '../../../src/domain/positions.js';
import { fitImpactModel, sportiveImpact, withModelRatings, resolveImpactSettings, type ImpactArtifact } from '../../../src/valuation/impact/index.js';
import { ratedPlayer, ratingIn } from '../../../src/valuation/impact/model.js';

// The demo world with its generator's ratings standing in for the model's (as in impact.test.ts).
const AS_OF = '2026-06-30';
const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
const ratingRows = world.ratings.map((r) => ({ ...r, source: 'model' }));
const snap: Snapshot = withModelRatings(buildSnapshot(world, AS_OF, 'test'), ratingRows);
const art: ImpactArtifact = fitImpactModel(snap);
const RUNS = { runs: 600 };

const latest = (s: Snapshot, id: string) => { const r = s.ratings.get(id)!; return r[r.length - 1]; };
const ratedSquad = (club: string) => [...snap.squads.get(club)!].filter((id) => latest(snap, id)?.season >= snap.currentSeason - 1);
const clubsOf = (league: string) => [...snap.clubsOfLeague.get(league)!];
// his ratings over the horizon seasons, moved along the age curve (veterans decline, careers end)
const horizon = (id: string) => {
  const p = ratedPlayer(snap, id, resolveImpactSettings({}))!;
  return [0, 1, 2].map((k) => ratingIn(art.ageCurve, p, snap.analysisSeason + k));
};

test('a player who would hardly ever start adds about nothing; regulars do add', () => {
  let idle = 0, regulars = 0;
  for (const club of [clubsOf('PREMIER_DIVISION')[3], clubsOf('ERSTE_LIGA')[6], clubsOf('FIRST_DIVISION')[9]]) {
    for (const id of ratedSquad(club)) {
      const r = sportiveImpact(art, snap, { playerId: id, clubId: club }, RUNS);
      if (r.playingTimePercentage < 0.03) {
        idle++;
        // a player who will grow may take the place of a declining veteran in the later seasons
        const h = horizon(id);
        if (h[2] <= h[0]) assert.ok(r.increaseInExpectedPosition < 0.05, `${id} plays ${r.playingTimePercentage} but adds ${r.increaseInExpectedPosition} places`);
        // the analysis season, the one his playing time describes, gains nothing from him (a young
        // player may grow into the XI in the later seasons)
        const first = r.seasons[0];
        assert.ok(first.originalExpectedPosition - first.newExpectedPosition < 0.01 + first.originalStandardError + first.newStandardError, `${id} (pt ${r.playingTimePercentage}): ${first.originalExpectedPosition} -> ${first.newExpectedPosition}`);
      }
      if (r.playingTimePercentage > 0.75) {
        regulars++;
        assert.ok(r.increaseInExpectedPosition > 0, `${id} starts ${r.playingTimePercentage} and adds nothing`);
      }
    }
  }
  assert.ok(idle >= 5 && regulars >= 15, `idle ${idle}, regulars ${regulars}`);
});

test('impact and playing time both rise with his rating (the same player made better, one club, one set of random numbers)', () => {
  const league = 'PRIMERA_LIGA';
  const club = clubsOf(league)[8];
  // an outside striker, his rating set from weak to world class
  const id = [...snap.ratings.keys()].find((p) => latest(snap, p).season === snap.currentSeason && latest(snap, p).position === 'ST'
    && !clubsOf(league).some((c) => snap.squads.get(c)!.includes(p)))!;
  let previous: { pt: number; inc: number; eur: number } | null = null;
  const seen: string[] = [];
  for (const rating of [45, 55, 62, 68, 74, 80, 86, 92]) {
    const rows = ratingRows.map((r) => (r.player_id === id && r.season === latest(snap, id).season ? { ...r, rating, potential: Math.max(r.potential, rating) } : r));
    const r = sportiveImpact(art, withModelRatings(snap, rows), { playerId: id, clubId: club }, RUNS);
    const now = { pt: r.playingTimePercentage, inc: r.increaseInExpectedPosition, eur: r.onFieldValueEur };
    seen.push(`${rating}: pt ${now.pt} +${now.inc.toFixed(3)}`);
    if (previous) {
      assert.ok(now.pt >= previous.pt, seen.join('; '));
      assert.ok(now.inc >= previous.inc - 1e-12, seen.join('; '));
      assert.ok(now.eur >= previous.eur, seen.join('; '));
    }
    previous = now;
  }
  assert.ok(previous!.pt > 0.8 && previous!.inc > 0.3, seen.join('; '));
  assert.ok(seen[0].startsWith('45: pt 0 '), seen.join('; '));
});

test('in one squad, a better player who plays more never adds less (same position group, within simulation error)', () => {
  for (const club of [clubsOf('SERIE_NAZIONALE')[2], clubsOf('DIVISION_ELITE')[5]]) {
    const rows = ratedSquad(club).map((id) => {
      const r = sportiveImpact(art, snap, { playerId: id, clubId: club }, RUNS);
      const l = latest(snap, id);
      return { id, rating: l.rating, h: horizon(id), group: POSITION_GROUP[l.position as keyof typeof POSITION_GROUP], pt: r.playingTimePercentage, inc: r.increaseInExpectedPosition, se: r.newStandardError + r.originalStandardError };
    });
    let compared = 0;
    for (const a of rows) {
      for (const b of rows) {
        // better: in every horizon season, not just now (an older player declines sooner)
        if (a.group !== b.group || !(a.rating > b.rating) || !a.h.every((r, k) => r > b.h[k]) || !(a.pt >= b.pt)) continue;
        compared++;
        assert.ok(a.inc >= b.inc - 2 * (a.se + b.se), `${club}: ${a.id} (${a.rating}, pt ${a.pt}) +${a.inc} < ${b.id} (${b.rating}, pt ${b.pt}) +${b.inc}`);
      }
    }
    assert.ok(compared >= 20, `only ${compared} pairs`);
  }
});

test('at one rating, the less he would play the less he adds: the club\'s own striker made better and better', () => {
  const league = 'PREMIER_DIVISION';
  const signing = [...snap.ratings.keys()].find((p) => latest(snap, p).season === snap.currentSeason && latest(snap, p).position === 'ST'
    && !clubsOf(league).some((c) => snap.squads.get(c)!.includes(p)))!;
  const bestStriker = (club: string) => ratedSquad(club).filter((id) => latest(snap, id).position === 'ST').sort((a, b) => latest(snap, b).rating - latest(snap, a).rating)[0];
  const impactWith = (club: string, rival: number) => {
    const incumbent = bestStriker(club);
    const rows = ratingRows.map((r) => {
      if (r.player_id === signing && r.season === latest(snap, signing).season) return { ...r, rating: 74, potential: 74 };
      if (r.player_id === incumbent && r.season === latest(snap, incumbent).season) return { ...r, rating: rival, potential: Math.max(r.potential, rival) };
      return r;
    });
    // another data version: the artifact's cached squads of the unchanged world must not be used
    const changed = { ...withModelRatings(snap, rows), dataVersion: `test-rival-${club}-${rival}` };
    return sportiveImpact(art, changed, { playerId: signing, clubId: club }, RUNS);
  };
  // A club where the question arises: against a weak incumbent the signing would play a third of the time or more.
  const club = clubsOf(league).find((c) => bestStriker(c) !== undefined && impactWith(c, 50).playingTimePercentage >= 0.33)!;
  assert.ok(club, 'a club where a striker rated 74 would play');
  const seen: string[] = [];
  let previous: { pt: number; inc: number; se: number } | null = null;
  for (const rival of [50, 62, 70, 76, 82, 90]) {
    const r = impactWith(club, rival);
    const now = { pt: r.playingTimePercentage, inc: r.increaseInExpectedPosition, se: r.originalStandardError + r.newStandardError };
    seen.push(`rival ${rival}: pt ${now.pt} +${now.inc.toFixed(3)}`);
    if (previous) {
      assert.ok(now.pt <= previous.pt, seen.join('; '));
      assert.ok(now.inc <= previous.inc + 2 * (now.se + previous.se), seen.join('; '));
    }
    previous = now;
  }
  const first = Number(seen[0].split('pt ')[1].split(' ')[0]);
  assert.ok(first - previous!.pt >= 0.15, `the rival takes too little of his time: ${seen.join('; ')}`);
});
