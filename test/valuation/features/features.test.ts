import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../../src/domain/snapshot.js';
import type { WorldData } from '../../../src/domain/world.js';
import {
  clubAt, clubStrengthAt, contractMonthsAt, featureIndex, firstLogValueWithin, latestValue, leagueStrengthAt, logValueAt, tierAt, valueRiseAt,
  valueTrendAt,
} from '../../../src/valuation/features/index.js';
import { addDays } from '../../../src/domain/days.js';
import { feeFeatures } from '../../../src/valuation/fee/index.js';
import { ratingFeatures } from '../../../src/valuation/rating/index.js';
import { clubIds, syntheticWorld } from './synthetic.js';

const world = syntheticWorld({ seed: 3, players: 120 });
const clubs = clubIds();

/** The same world plus rows dated after `cut`: new values and career steps (and contracts when asked). */
function withFuture(w: WorldData, cut: string, contracts = false): WorldData {
  const later = addDays(cut, 10);
  const out = structuredClone(w);
  for (const p of out.players) {
    out.market_values.push({ player_id: p.id, date: later, value_eur: 1e9, club_id: clubs[0] });
    out.career_steps.push({ player_id: p.id, club_id: clubs[0], start_date: later, end_date: null, is_loan: false, parent_club_id: null });
    if (contracts) out.contracts.push({ player_id: p.id, club_id: clubs[0], signed_date: later, end_date: '2040-06-30', agency_name: null });
  }
  return out;
}

test('features read at a date ignore every row dated after it', () => {
  const cut = '2016-03-15';
  const a = buildSnapshot(world, '2024-06-30', 'a');
  const b = buildSnapshot(withFuture(world, cut), '2024-06-30', 'b');
  const ia = featureIndex(a);
  const ib = featureIndex(b);
  let compared = 0;
  for (const p of world.players.slice(0, 60)) {
    const q = { playerId: p.id, at: cut, sellerClubId: clubAt(ia, p.id, cut), buyerClubId: clubs[3] };
    const fa = [...feeFeatures(ia, q, null), ...ratingFeatures(ia, p.id, cut)];
    const fb = [...feeFeatures(ib, q, null), ...ratingFeatures(ib, p.id, cut)];
    assert.deepEqual(fb, fa, `features of ${p.id} changed by rows after ${cut}`);
    compared++;
  }
  assert.equal(compared, 60);
  // The injected future is visible after it happens, so the comparison above could have failed.
  const p0 = world.players[0].id;
  assert.equal(latestValue(ib, p0, '2016-04-30')!.valueEur, 1e9);
  assert.notEqual(latestValue(ia, p0, '2016-04-30')!.valueEur, 1e9);
});

test('a contract signed after the date is never read as the contract in force', () => {
  const cut = '2016-03-15';
  const b = featureIndex(buildSnapshot(withFuture(world, cut, true), '2024-06-30', 'b'));
  // The snapshot keeps only the latest contract, so the earlier one is unknown rather than replaced.
  for (const p of world.players.slice(0, 30)) assert.ok(Number.isNaN(contractMonthsAt(b, p.id, cut)));
});

test('a date after the snapshot is refused', () => {
  const s = buildSnapshot(world, '2015-06-30', 'x');
  const idx = featureIndex(s);
  assert.throws(() => latestValue(idx, world.players[0].id, '2015-07-01'), /after the snapshot/);
  assert.throws(() => clubStrengthAt(idx, clubs[0], '2016-01-01'), /after the snapshot/);
});

test('latest value, trend, club and league strength and tier', () => {
  const s = buildSnapshot(world, '2020-06-30', 'x');
  const idx = featureIndex(s);
  const p = world.players.find((x) => world.market_values.some((v) => v.player_id === x.id && v.date === '2012-01-01'))!;
  const v = latestValue(idx, p.id, '2012-03-01')!;
  assert.equal(v.date, '2012-01-01');
  assert.ok(Math.abs(logValueAt(idx, p.id, '2012-03-01') - Math.log(v.valueEur)) < 1e-12);
  assert.ok(Number.isFinite(valueTrendAt(idx, p.id, '2012-03-01')));
  assert.ok(Number.isNaN(logValueAt(idx, p.id, '1990-01-01')));
  // Top-flight clubs are richer than second-tier ones, and their league is stronger.
  const top = clubStrengthAt(idx, clubs[0], '2015-03-01');
  const low = clubStrengthAt(idx, clubs[9], '2015-03-01');
  assert.ok(top > low, `${top} > ${low}`);
  assert.ok(leagueStrengthAt(idx, clubs[1], '2015-03-01') > leagueStrengthAt(idx, clubs[7], '2015-03-01'));
  assert.equal(tierAt(idx, clubs[1], '2015-03-01'), 1);
  assert.equal(tierAt(idx, clubs[7], '2015-03-01'), 2);
  assert.ok(Number.isNaN(clubStrengthAt(idx, 'Cunknown', '2015-03-01')));
});

test('contract months: known contract, override, expiry, unknown', () => {
  const s = buildSnapshot(world, '2024-06-30', 'x');
  const idx = featureIndex(s);
  const c = world.contracts[0];
  const at = addDays(c.signed_date, 30);
  const months = contractMonthsAt(idx, c.player_id, at);
  assert.ok(months > 0 && Number.isFinite(months));
  assert.ok(Math.abs(contractMonthsAt(idx, c.player_id, at, addDays(at, 365)) - 12) < 0.1);
  assert.equal(contractMonthsAt(idx, c.player_id, '2024-06-30', '2020-01-01'), 0);
  assert.ok(Number.isNaN(contractMonthsAt(idx, c.player_id, addDays(c.signed_date, -1))));
});

test('a player valued for less than a year rises from his first value; older players keep the plain trend', () => {
  const w = structuredClone(world);
  const base = w.players[0];
  // A debutant first valued at 25M ten months before the date and at 90M now: no value a year back.
  w.players.push({ ...base, id: 'Pdebut', name: 'Debutant', birth_date: '2007-07-13' });
  w.market_values.push(
    { player_id: 'Pdebut', date: '2023-08-21', value_eur: 25e6, club_id: clubs[0] },
    { player_id: 'Pdebut', date: '2024-03-21', value_eur: 75e6, club_id: clubs[0] },
    { player_id: 'Pdebut', date: '2024-06-07', value_eur: 90e6, club_id: clubs[0] },
  );
  // One valued only once, yesterday: no rise can be read.
  w.players.push({ ...base, id: 'Pnew', name: 'New', birth_date: '2006-01-01' });
  w.market_values.push({ player_id: 'Pnew', date: '2024-06-29', value_eur: 5e6, club_id: clubs[0] });
  const idx = featureIndex(buildSnapshot(w, '2024-06-30', 'x'));
  const at = '2024-06-30';
  assert.ok(Number.isNaN(valueTrendAt(idx, 'Pdebut', at)), 'no value a year back: the plain trend is unknown');
  assert.ok(Math.abs(valueRiseAt(idx, 'Pdebut', at) - Math.log(90 / 25)) < 1e-12);
  assert.ok(Math.abs(firstLogValueWithin(idx, 'Pdebut', at, 365) - Math.log(25e6)) < 1e-9);
  // Read at an earlier date, only the values published by then count: on 1 April he had risen x3.
  assert.ok(Math.abs(valueRiseAt(idx, 'Pdebut', '2024-04-01') - Math.log(3)) < 1e-12);
  assert.ok(Number.isNaN(valueRiseAt(idx, 'Pdebut', '2023-09-01')), 'a single value is no rise');
  // His first value more than `days` back: not counted from it.
  assert.ok(Number.isNaN(firstLogValueWithin(idx, 'Pdebut', at, 200)));
  assert.ok(Number.isNaN(valueRiseAt(idx, 'Pnew', at)));
  // A player with a value a year back keeps the plain trend.
  const p = world.players.find((x) => Number.isFinite(valueTrendAt(idx, x.id, '2020-06-30')))!;
  assert.equal(valueRiseAt(idx, p.id, '2020-06-30'), valueTrendAt(idx, p.id, '2020-06-30'));
});
