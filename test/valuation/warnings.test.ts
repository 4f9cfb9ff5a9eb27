import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSnapshot } from '../../src/domain/snapshot.js';
import { playerFacts } from '../../src/domain/player-facts.js';
import { contractEndUsed, playerWarnings } from '../../src/valuation/warnings.js';
import { clubIds, syntheticWorld } from './features/synthetic.js';

const world = syntheticWorld({ seed: 3, players: 120 });
const snap = buildSnapshot(world, '2024-06-30', 'syn');
const atClub = [...snap.players.values()].find((p) => playerFacts(snap, p).currentTeamId !== null)!;
const own = playerFacts(snap, atClub).currentTeamId!;

test('already_at_club for his own club only, with his name and the club in the message', () => {
  const w = playerWarnings(snap, atClub.id, { clubId: own });
  assert.equal(w.filter((x) => x.code === 'already_at_club').length, 1);
  assert.match(w[0].message, new RegExp(`${atClub.name} already plays for Club \\d`));
  const other = clubIds().find((c) => c !== own)!;
  assert.equal(playerWarnings(snap, atClub.id, { clubId: other }).some((x) => x.code === 'already_at_club'), false);
});

test('free_agent when the contract used ended on or before the as-of date, with the dates', () => {
  const on = playerWarnings(snap, atClub.id, { contractEnd: '2024-06-30' }).find((x) => x.code === 'free_agent');
  assert.ok(on);
  assert.match(on.message, /ended on 2024-06-30, on or before the transfer date 2024-06-30: no fee is due/);
  assert.equal(playerWarnings(snap, atClub.id, { contractEnd: '2024-07-01' }).some((x) => x.code === 'free_agent'), false);
  assert.equal(playerWarnings(snap, atClub.id, { contractEnd: null }).some((x) => x.code === 'free_agent'), false);
  assert.equal(contractEndUsed(snap, atClub.id, '2027-06-30'), '2027-06-30');
});

test('stale_value when the latest crowd value is more than 12 months older than the as-of date', () => {
  const later = buildSnapshot(world, '2026-06-30', 'syn');
  const stale = playerWarnings(later, atClub.id).find((x) => x.code === 'stale_value');
  assert.ok(stale, 'no value after mid-2024 in the synthetic world: stale two years on');
  assert.match(stale.message, /dates from \d{4}-\d{2}-\d{2}, \d+ months before the as-of date 2026-06-30/);
  assert.equal(playerWarnings(snap, atClub.id).some((x) => x.code === 'stale_value'), false);
});
