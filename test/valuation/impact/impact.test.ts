import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoWorld } from '../../../src/data/demo/index.js';
import { buildSnapshot, type Snapshot } from '../../../src/domain/snapshot.js';
import { POSITION_GROUP, isPositionCode } from '../../../src/domain/positions.js';
import {
  fitImpactModel, ImpactError, roiOf, sportiveImpact, squadAnalysis, withModelRatings, type ImpactArtifact,
} from '../../../src/valuation/impact/index.js';

// One demo world for the file. Its generator's ratings (source 'demo', the target our rating model
// is calibrated to) stand in for the model ratings, which take ~8 s to fit.
const AS_OF = '2026-06-30';
const world = generateDemoWorld({ seed: 42, asOf: AS_OF });
const snap: Snapshot = withModelRatings(buildSnapshot(world, AS_OF, 'test'), world.ratings.map((r) => ({ ...r, source: 'model' })));
const art: ImpactArtifact = fitImpactModel(snap);
const RUNS = { runs: 600 }; // fixed runs keep the file fast; comparisons are paired on the same numbers

const latest = (id: string) => { const r = snap.ratings.get(id)!; return r[r.length - 1]; };
const current = [...snap.ratings.keys()].filter((id) => latest(id).season === snap.currentSeason && snap.players.get(id)?.birth_date);
const clubsOf = (league: string) => [...snap.clubsOfLeague.get(league)!];
const leagueOfPlayer = (id: string) => {
  const club = [...snap.squads].find(([, ps]) => ps.includes(id))?.[0];
  return club ? snap.leagueOfClub.get(club) ?? null : null;
};
// players outside the tested league, by position, best first
const candidates = (league: string, position: string) =>
  current.filter((id) => latest(id).position === position && leagueOfPlayer(id) !== league).sort((a, b) => latest(b).rating - latest(a).rating);

test('the fit ties results to squads with positive slopes and uses a fitted age curve', () => {
  assert.equal(art.kind, 'impact');
  assert.ok(art.stats.clubsTied >= 100);
  assert.ok(art.tie.attack.beta.xi > 0 && art.tie.defence.beta.xi > 0);
  assert.ok(art.stats.tieRSquared.attack > 0.3);
  assert.equal(art.stats.ageCurveSource, 'fitted');
  // the artifact is plain JSON
  assert.deepEqual(JSON.parse(JSON.stringify(art)), art);
});

test('a signing never makes the expected position worse, and a better player helps at least as much', () => {
  for (const league of ['PREMIER_DIVISION', 'ERSTE_LIGA']) {
    for (const club of clubsOf(league).slice(0, 3)) {
      for (const position of ['ST', 'CB']) {
        const c = candidates(league, position);
        const better = sportiveImpact(art, snap, { playerId: c[0], clubId: club }, RUNS);
        const worse = sportiveImpact(art, snap, { playerId: c[Math.floor(c.length / 2)], clubId: club }, RUNS);
        for (const r of [better, worse]) {
          assert.ok(r.newExpectedPosition <= r.originalExpectedPosition, `${club}: ${r.newExpectedPosition} > ${r.originalExpectedPosition}`);
          assert.equal(r.increaseInExpectedPosition, Math.max(0, r.originalExpectedPosition - r.newExpectedPosition));
          assert.ok(r.onFieldValueEur >= 0 && Number.isInteger(r.onFieldValueEur));
          assert.equal(r.seasons.length, 3);
          assert.deepEqual(r.seasons.map((s) => s.season), [snap.analysisSeason, snap.analysisSeason + 1, snap.analysisSeason + 2]);
        }
        assert.ok(better.increaseInExpectedPosition >= worse.increaseInExpectedPosition,
          `${club} ${position}: ${better.increaseInExpectedPosition} < ${worse.increaseInExpectedPosition}`);
        // same club, same random numbers: the baseline is the same whoever is evaluated
        assert.equal(better.originalExpectedPosition, worse.originalExpectedPosition);
      }
    }
  }
});

test('removing the best player never improves the expected position', () => {
  for (const club of clubsOf('SERIE_NAZIONALE').slice(0, 4)) {
    const best = [...snap.squads.get(club)!].filter((id) => snap.ratings.has(id)).sort((a, b) => latest(b).rating - latest(a).rating)[0];
    const r = sportiveImpact(art, snap, { playerId: best, clubId: club }, RUNS);
    assert.ok(r.originalExpectedPosition >= r.newExpectedPosition, 'without him is not better than with him');
    assert.ok(r.increaseInExpectedPosition > 0, 'the best player matters');
    const actual = squadAnalysis(art, snap, { clubId: club }, RUNS);
    const without = squadAnalysis(art, snap, { clubId: club, squad: actual.squad.filter((e) => e.playerId !== best) }, RUNS);
    assert.ok(without.expectedLeagueRank >= actual.expectedLeagueRank, `${without.expectedLeagueRank} < ${actual.expectedLeagueRank}`);
  }
});

test('playing time lies in [0, 0.9] and follows the competition at his position', () => {
  const club = clubsOf('PRIMERA_LIGA')[5];
  const star = candidates('PRIMERA_LIGA', 'CB')[0];
  const weak = candidates('PRIMERA_LIGA', 'CB').at(-1)!;
  const a = sportiveImpact(art, snap, { playerId: star, clubId: club }, RUNS);
  const b = sportiveImpact(art, snap, { playerId: weak, clubId: club }, RUNS);
  for (const r of [a, b]) assert.ok(r.playingTimePercentage >= 0 && r.playingTimePercentage <= 0.9);
  assert.ok(a.playingTimePercentage > 0.6, `star plays ${a.playingTimePercentage}`);
  assert.ok(b.playingTimePercentage < a.playingTimePercentage);
  for (const id of current.slice(0, 30)) {
    const p = sportiveImpact(art, snap, { playerId: id, clubId: clubsOf('DIVISION_ELITE')[2] }, { runs: 100 }).playingTimePercentage;
    assert.ok(p >= 0 && p <= 0.9);
  }
});

test('a player taken from a rival of the same league: the rival loses him in the "with" run', () => {
  const league = 'PREMIER_DIVISION';
  const [club, rival] = clubsOf(league);
  const best = [...snap.squads.get(rival)!].filter((id) => snap.ratings.has(id)).sort((a, b) => latest(b).rating - latest(a).rating)[0];
  const r = sportiveImpact(art, snap, { playerId: best, clubId: club }, RUNS);
  assert.ok(r.newExpectedPosition <= r.originalExpectedPosition);
  // squad analysis applies the same rule: taking him from the rival helps at least as much as adding an equal outsider
  assert.ok(r.increaseInExpectedPosition >= 0);
});

test('determinism: the same request gives the same answer, also from a JSON copy of the artifact', () => {
  const club = clubsOf('ERSTE_LIGA')[4];
  const player = candidates('ERSTE_LIGA', 'CM')[3];
  const a = sportiveImpact(art, snap, { playerId: player, clubId: club });
  const b = sportiveImpact(JSON.parse(JSON.stringify(art)) as ImpactArtifact, snap, { playerId: player, clubId: club });
  assert.deepEqual(a, b);
  assert.ok(a.originalStandardError <= 0.05 && a.newStandardError <= 0.05, 'adaptive runs reach the target');
  const s1 = squadAnalysis(art, snap, { clubId: club });
  assert.deepEqual(squadAnalysis(art, snap, { clubId: club }), s1);
  assert.ok(s1.standardError <= 0.05);
});

test('squad analysis: the echoed actual squad sent back as custom gives the same rank; positions are used', () => {
  for (const club of [clubsOf('PREMIER_DIVISION')[7], clubsOf('FIRST_DIVISION')[3]]) {
    const actual = squadAnalysis(art, snap, { clubId: club });
    assert.equal(actual.squadSource, 'actual');
    assert.ok(actual.squad.length > 10 && actual.squad.every((e) => isPositionCode(e.position) && e.name.length > 0));
    assert.equal(Number(actual.expectedLeagueRank.toFixed(2)), actual.expectedLeagueRank); // 2 decimals
    const echoed = squadAnalysis(art, snap, { clubId: club, squad: actual.squad.map((e) => ({ playerId: e.playerId, position: e.position })) });
    assert.equal(echoed.squadSource, 'custom');
    assert.equal(echoed.expectedLeagueRank, actual.expectedLeagueRank);
    // the same order reversed gives the same answer too
    const reversed = squadAnalysis(art, snap, { clubId: club, squad: [...actual.squad].reverse() });
    assert.equal(reversed.expectedLeagueRank, actual.expectedLeagueRank);
  }
  // keepers in outfield positions make a squad worse
  const club = clubsOf('PREMIER_DIVISION')[7];
  const actual = squadAnalysis(art, snap, { clubId: club }, RUNS);
  const misplaced = actual.squad.map((e) => (POSITION_GROUP[e.position] === 'FWD' ? { ...e, position: 'GK' } : e));
  assert.ok(squadAnalysis(art, snap, { clubId: club, squad: misplaced }, RUNS).expectedLeagueRank > actual.expectedLeagueRank);
});

test('errors: unknown club and player, a club in no league, a player without a rating, bad squad entries', () => {
  const club = clubsOf('PREMIER_DIVISION')[0];
  const player = current[0];
  const code = (f: () => unknown, c: string, index: number | null = null) =>
    assert.throws(f, (e: unknown) => e instanceof ImpactError && e.code === c && e.index === index);
  code(() => sportiveImpact(art, snap, { playerId: player, clubId: 'C0000000000000000000000000' }), 'unknown_club');
  code(() => sportiveImpact(art, snap, { playerId: 'P0000000000000000000000000', clubId: club }), 'unknown_player');
  const leagueless = [...snap.clubs.keys()].find((c) => !snap.leagueOfClub.has(c))!;
  code(() => sportiveImpact(art, snap, { playerId: player, clubId: leagueless }), 'club_without_league');
  code(() => squadAnalysis(art, snap, { clubId: leagueless }), 'club_without_league');
  // a player whose ratings stop two seasons before the current one has no analysis data
  const unrated = current[1];
  const stale = withModelRatings(snap, [...snap.ratings.values()].flat().filter((r) => r.player_id !== unrated || r.season < snap.currentSeason - 1));
  code(() => sportiveImpact(art, stale, { playerId: unrated, clubId: club }), 'player_not_rated');
  code(() => squadAnalysis(art, stale, { clubId: club, squad: [{ playerId: player, position: 'CB' }, { playerId: unrated, position: 'CB' }] }), 'player_not_rated', 1);
  code(() => squadAnalysis(art, snap, { clubId: club, squad: [{ playerId: player, position: 'XX' }] }), 'invalid_squad_entry', 0);
  code(() => squadAnalysis(art, snap, { clubId: club, squad: [{ playerId: player, position: 'CB' }, { playerId: player, position: 'ST' }] }), 'invalid_squad_entry', 1);
  code(() => squadAnalysis(art, snap, { clubId: club, squad: [{ playerId: 'P0000000000000000000000000', position: 'CB' }] }), 'unknown_player', 0);
});

test('ROI: total / (fee + 3 x wage), null when the cost is zero', () => {
  assert.equal(roiOf(30e6, 20e6, null), 1.5);
  assert.equal(roiOf(30e6, 20e6, 5e6), 30e6 / 35e6);
  assert.equal(roiOf(30e6, 0, 5e6), 2);
  assert.equal(roiOf(30e6, 0, null), null);
  assert.equal(roiOf(30e6, 0, 0), null);
  assert.equal(roiOf(0, 10e6, null), 0);
});
