import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_COVERAGE, coverageOfPlan, isClubCovered, isCompetitionCovered, isEmptyCoverage, isPlayerCovered, splitList } from '../../src/access/plans.js';

const CLUB_PL = 'C00000000000000000000000PL1';
const CLUB_PL2 = 'C00000000000000000000000PL2';
const CLUB_L1 = 'C00000000000000000000000L11';
const CLUB_EXTRA = 'C0000000000000000000000EXTR';
const CLUB_NO_LEAGUE = 'C000000000000000000000NONE0';
const leagues: Record<string, string> = { [CLUB_PL]: 'PREMIER_LEAGUE', [CLUB_PL2]: 'PREMIER_LEAGUE', [CLUB_L1]: 'LIGUE_1', [CLUB_EXTRA]: 'SERIE_A' };
const leagueOf = (clubId: string) => leagues[clubId];

const plan = coverageOfPlan({ all_competitions: false, competitions: ['PREMIER_LEAGUE'], clubs: [CLUB_EXTRA] });

test('a club is covered through its current league or as an extra club, and not otherwise', () => {
  assert.equal(isClubCovered(plan, CLUB_PL, leagueOf), true);
  assert.equal(isClubCovered(plan, CLUB_EXTRA, leagueOf), true, 'extra club whose league is not on the plan');
  assert.equal(isClubCovered(plan, CLUB_L1, leagueOf), false);
  assert.equal(isClubCovered(plan, CLUB_NO_LEAGUE, leagueOf), false, 'no current league');
  assert.equal(isClubCovered(plan, null, leagueOf), false);
});

test('a player is covered when his current team or his owning club is covered', () => {
  assert.equal(isPlayerCovered(plan, CLUB_PL, CLUB_PL, leagueOf), true);
  assert.equal(isPlayerCovered(plan, CLUB_L1, CLUB_PL, leagueOf), true, 'loaned out from a covered club');
  assert.equal(isPlayerCovered(plan, CLUB_PL2, CLUB_L1, leagueOf), true, 'loaned in to a covered club');
  assert.equal(isPlayerCovered(plan, CLUB_L1, CLUB_EXTRA, leagueOf), true, 'owned by an extra club');
  assert.equal(isPlayerCovered(plan, CLUB_L1, CLUB_L1, leagueOf), false);
  assert.equal(isPlayerCovered(plan, null, null, leagueOf), false, 'no club at all');
});

test('an all-coverage plan covers every club and player, even without a league', () => {
  assert.equal(isClubCovered(ALL_COVERAGE, CLUB_NO_LEAGUE, leagueOf), true);
  assert.equal(isPlayerCovered(ALL_COVERAGE, null, null, leagueOf), true);
  assert.equal(isCompetitionCovered(ALL_COVERAGE, 'ANY_LEAGUE'), true);
});

test('competitions are covered only when named', () => {
  assert.equal(isCompetitionCovered(plan, 'PREMIER_LEAGUE'), true);
  assert.equal(isCompetitionCovered(plan, 'SERIE_A'), false, 'an extra club does not bring its competition');
});

test('a plan naming nothing is empty coverage; list parsing trims and de-duplicates', () => {
  assert.equal(isEmptyCoverage(coverageOfPlan({ all_competitions: false, competitions: [], clubs: [] })), true);
  assert.equal(isEmptyCoverage(plan), false);
  assert.equal(isEmptyCoverage(ALL_COVERAGE), false);
  assert.deepEqual(splitList(' A, B,,A ,C '), ['A', 'B', 'C']);
  assert.deepEqual(splitList(undefined), []);
});
