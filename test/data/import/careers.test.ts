import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCareer, type CareerInput, type Move } from '../../../src/data/import/careers.js';

let ref = 0;
const mv = (date: string, from: string | null, to: string | null, fee: number | null, loanText = false): Move => ({ ref: ref++, date, from, to, fee, loanText });
const steps = (c: ReturnType<typeof buildCareer>) => c.steps.map((s) => [s.club_id, s.start_date, s.end_date, s.is_loan, s.parent_club_id]);
/** A career with no snapshot row unless given: current season 2023/24, data to 30 June 2024. */
const career = (input: Partial<CareerInput>) =>
  buildCareer({ moves: [], played: [], snapshotClub: null, lastSeason: null, currentSeason: 2023, dataEnd: '2024-06-30', ...input });

test('a free move back with a positive fee is a buy-back, not a loan return', () => {
  const c = career({ moves: [mv('2018-07-01', 'A', 'B', 0), mv('2019-07-01', 'B', 'A', 5_000_000)] });
  assert.deepEqual(steps(c), [['B', '2018-07-01', '2019-07-01', false, null], ['A', '2019-07-01', null, false, null]]);
  assert.equal(c.loanRefs.size, 0);
});

test('a return after more than two seasons is not a loan', () => {
  const c = career({ moves: [mv('2015-07-01', 'A', 'B', 0), mv('2019-07-01', 'B', 'A', 0)] });
  assert.equal(c.steps.some((s) => s.is_loan), false);
});

test('an old free move with no return is a free transfer, a recent one out of a paying club an ongoing loan', () => {
  const old = career({ moves: [mv('2010-07-01', 'X', 'A', 1e6), mv('2012-07-01', 'A', 'B', 0)] });
  assert.equal(old.steps[1].is_loan, false);
  const recent = career({ moves: [mv('2022-07-01', 'X', 'A', 1e6), mv('2023-08-01', 'A', 'B', 0)] });
  assert.deepEqual(steps(recent)[1], ['B', '2023-08-01', null, true, 'A']);
  const looked = career({ moves: [mv('2021-07-01', 'X', 'A', 1e6), mv('2021-08-01', 'A', 'C', 0), mv('2022-06-30', 'C', 'A', 0), mv('2023-07-01', 'A', 'B', 0)] });
  assert.deepEqual(steps(looked).map((s) => s[3]), [false, true, false, true], 'earlier loan returns are looked through');
});

test('the snapshot predating a last-day loan return keeps him at the loan club', () => {
  const moves = [mv('2023-07-01', 'X', 'A', 2e6), mv('2023-07-15', 'A', 'B', 0), mv('2024-06-30', 'B', 'A', 0)];
  const c = career({ moves, snapshotClub: 'B', lastSeason: 2023 });
  assert.deepEqual(steps(c), [['A', '2023-07-01', '2023-07-15', false, null], ['B', '2023-07-15', null, true, 'A']]);
  assert.ok(c.rules.has('snapshot_club_step_reopened'));
});

test('the snapshot club after a move within his last season starts at the end of the data; same-day hops leave no empty step', () => {
  const c = career({ moves: [mv('2023-07-01', 'A', 'B', 0), mv('2023-07-01', 'B', 'C', 1e5)], snapshotClub: 'D', lastSeason: 2023 });
  assert.deepEqual(steps(c), [['C', '2023-07-01', '2024-06-30', false, null], ['D', '2024-06-30', null, false, null]]);
  assert.ok(c.rules.has('snapshot_club_from_end_of_data'));
});

test('a snapshot club he left during his last season: the later transfer stands', () => {
  // Laporte: Man City (snapshot, last season 2023/24) to Al-Nassr on 24 August 2023.
  const c = career({ moves: [mv('2018-01-30', 'A', 'M', 65e6), mv('2023-08-24', 'M', 'N', 27.5e6)], snapshotClub: 'M', lastSeason: 2023 });
  assert.deepEqual(steps(c), [['M', '2018-01-30', '2023-08-24', false, null], ['N', '2023-08-24', null, false, null]]);
  assert.deepEqual([...c.rules], ['snapshot_club_left_during_last_season']);
  // A January loan out of the snapshot club: he is at the borrower.
  const loan = career({ moves: [mv('2022-07-01', 'A', 'M', 5e6), mv('2024-01-20', 'M', 'L', 0)], snapshotClub: 'M', lastSeason: 2023 });
  assert.deepEqual(steps(loan)[1], ['L', '2024-01-20', null, true, 'M']);
});

test('the snapshot club unseen since an older move starts at the start of his last season, not at a valuation', () => {
  const c = career({ moves: [mv('2019-07-01', 'A', 'B', 1e5)], snapshotClub: 'D', lastSeason: 2023 });
  assert.deepEqual(steps(c), [['B', '2019-07-01', '2023-07-01', false, null], ['D', '2023-07-01', null, false, null]]);
  assert.deepEqual([...c.rules], ['snapshot_club_from_start_of_last_season']);
});

test('without transfers: one step at the snapshot club from the start of his last season, whatever the valuations say', () => {
  const current = career({ snapshotClub: 'R', lastSeason: 2023 });
  assert.deepEqual(steps(current), [['R', '2023-07-01', null, false, null]]);
  // Benzema's case: last season 2022/23, no transfer, valuations at Real Madrid since 2005.
  const gone = career({ snapshotClub: 'R', lastSeason: 2022 });
  assert.deepEqual(steps(gone), [['R', '2022-07-01', '2023-06-30', false, null]]);
  assert.deepEqual([...gone.rules].sort(), ['ended_at_end_of_last_season', 'snapshot_club_from_start_of_last_season']);
  assert.deepEqual(steps(career({})), [], 'no transfer, no snapshot row, no appearance: no evidence, no career');
});

test('a last season before the current one ends the last step at the end of that season', () => {
  const c = career({ moves: [mv('2015-07-01', 'A', 'B', 1e6), mv('2018-07-01', 'B', 'C', 2e6)], snapshotClub: 'C', lastSeason: 2020 });
  assert.deepEqual(steps(c), [['B', '2015-07-01', '2018-07-01', false, null], ['C', '2018-07-01', '2021-06-30', false, null]]);
  // An as-of in a season he played: still running (the snapshot of that date hides what comes later).
  assert.equal(career({ moves: [mv('2018-07-01', 'B', 'C', 2e6)], snapshotClub: 'C', lastSeason: 2020, currentSeason: 2020 }).steps[0].end_date, null);
});

test('a move after his last season (out of the covered leagues) ends at the end of its own season', () => {
  const c = career({ moves: [mv('2016-07-01', 'A', 'B', null), mv('2022-07-14', 'B', 'Q', 0)], snapshotClub: 'B', lastSeason: 2021 });
  assert.deepEqual(steps(c), [['B', '2016-07-01', '2022-07-14', false, null], ['Q', '2022-07-14', '2023-06-30', false, null]]);
  assert.ok(c.rules.has('late_move_ended_at_end_of_its_season'));
});

test('appearances vouch for a club from the first game: before the first move, and all along without moves', () => {
  const before = career({
    moves: [mv('2020-07-01', 'A', 'B', 1e6)],
    played: [{ club: 'A', first: '2019-08-10', last: '2020-05-20' }, { club: 'A', first: '2018-09-01', last: '2019-05-01' }, { club: 'B', first: '2020-08-15', last: '2021-05-01' }],
  });
  assert.deepEqual(steps(before), [['A', '2018-09-01', '2020-07-01', false, null], ['B', '2020-07-01', null, false, null]]);
  assert.ok(before.rules.has('step_started_at_an_appearance'));
  const none = career({
    played: [{ club: 'A', first: '2019-08-10', last: '2020-05-20' }, { club: 'B', first: '2021-01-20', last: '2023-05-01' }],
    snapshotClub: 'B',
    lastSeason: 2022,
  });
  assert.deepEqual(steps(none), [['A', '2019-08-10', '2021-01-20', false, null], ['B', '2021-01-20', '2023-06-30', false, null]]);
  const later = career({ played: [{ club: 'B', first: '2023-09-02', last: '2024-05-01' }], snapshotClub: 'B', lastSeason: 2023 });
  assert.deepEqual(steps(later), [['B', '2023-07-01', null, false, null]], 'his last season there vouches for its start');
});
