import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCareer, type Move } from '../../../src/data/import/careers.js';

let ref = 0;
const mv = (date: string, from: string | null, to: string | null, fee: number | null, loanText = false): Move => ({ ref: ref++, date, from, to, fee, loanText });
const steps = (c: ReturnType<typeof buildCareer>) => c.steps.map((s) => [s.club_id, s.start_date, s.end_date, s.is_loan, s.parent_club_id]);

test('a free move back with a positive fee is a buy-back, not a loan return', () => {
  const moves = [mv('2018-07-01', 'A', 'B', 0), mv('2019-07-01', 'B', 'A', 5_000_000)];
  const c = buildCareer({ moves, valuations: [], currentClub: null, dataEnd: '2024-06-30' });
  assert.deepEqual(steps(c), [['B', '2018-07-01', '2019-07-01', false, null], ['A', '2019-07-01', null, false, null]]);
  assert.equal(c.loanRefs.size, 0);
});

test('a return after more than two seasons is not a loan', () => {
  const c = buildCareer({ moves: [mv('2015-07-01', 'A', 'B', 0), mv('2019-07-01', 'B', 'A', 0)], valuations: [], currentClub: null, dataEnd: '2024-06-30' });
  assert.equal(c.steps.some((s) => s.is_loan), false);
});

test('an old free move with no return is a free transfer, a recent one out of a paying club an ongoing loan', () => {
  const old = buildCareer({ moves: [mv('2010-07-01', 'X', 'A', 1e6), mv('2012-07-01', 'A', 'B', 0)], valuations: [], currentClub: null, dataEnd: '2024-06-30' });
  assert.equal(old.steps[1].is_loan, false);
  const recent = buildCareer({ moves: [mv('2022-07-01', 'X', 'A', 1e6), mv('2023-08-01', 'A', 'B', 0)], valuations: [], currentClub: null, dataEnd: '2024-06-30' });
  assert.deepEqual(steps(recent)[1], ['B', '2023-08-01', null, true, 'A']);
  const looked = buildCareer({
    moves: [mv('2021-07-01', 'X', 'A', 1e6), mv('2021-08-01', 'A', 'C', 0), mv('2022-06-30', 'C', 'A', 0), mv('2023-07-01', 'A', 'B', 0)],
    valuations: [], currentClub: null, dataEnd: '2024-06-30',
  });
  assert.deepEqual(steps(looked).map((s) => s[3]), [false, true, false, true], 'earlier loan returns are looked through');
});

test('the snapshot predating a last-day loan return keeps him at the loan club', () => {
  const moves = [mv('2023-07-01', 'X', 'A', 2e6), mv('2023-07-15', 'A', 'B', 0), mv('2024-06-30', 'B', 'A', 0)];
  const c = buildCareer({ moves, valuations: [], currentClub: 'B', dataEnd: '2024-06-30' });
  assert.deepEqual(steps(c), [['A', '2023-07-01', '2023-07-15', false, null], ['B', '2023-07-15', null, true, 'A']]);
});

test('a current club seen nowhere starts at the end of the data; same-day hops leave no empty step', () => {
  const c = buildCareer({ moves: [mv('2020-07-01', 'A', 'B', 0), mv('2020-07-01', 'B', 'C', 1e5)], valuations: [], currentClub: 'D', dataEnd: '2024-06-30' });
  assert.deepEqual(steps(c), [['C', '2020-07-01', '2024-06-30', false, null], ['D', '2024-06-30', null, false, null]]);
});

test('without transfers the valuation clubs make the career', () => {
  const c = buildCareer({
    moves: [],
    valuations: [{ date: '2020-01-01', club: 'A' }, { date: '2020-06-01', club: null }, { date: '2021-01-01', club: 'A' }, { date: '2022-01-01', club: 'B' }],
    currentClub: null,
    dataEnd: '2024-06-30',
  });
  assert.deepEqual(steps(c), [['A', '2020-01-01', '2022-01-01', false, null], ['B', '2022-01-01', null, false, null]]);
});
