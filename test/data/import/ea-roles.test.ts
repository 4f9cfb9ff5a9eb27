import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eaRoles, EA_ROLE_COLUMNS, type EaAttributes } from '../../../src/data/import/ea-roles.js';
import { fc25Role } from '../../../src/data/import/ea.js';

/** A player of the position with every attribute at `base`, some raised. */
function player(position: string, foot: string, raised: Record<string, number> = {}, base = 65): { position: string; foot: string; attributes: EaAttributes } {
  const a: Record<string, number> = { AttWork: 60, DefWork: 60 };
  for (const c of EA_ROLE_COLUMNS) a[c] = base;
  return { position, foot, attributes: { ...a, ...raised } };
}

test('roles follow the attributes that define them, standardised within the position', () => {
  // A crowd of ordinary players of each position, whose spread standardises the scores.
  const crowd = ['GK', 'RB', 'ST', 'CB'].flatMap((pos) =>
    Array.from({ length: 30 }, (_, i) => player(pos, 'Right', Object.fromEntries(EA_ROLE_COLUMNS.map((c, j) => [c, 60 + ((i * 7 + j * 3) % 11)])))),
  );
  const cases = [
    player('GK', 'Right', { Passing: 90, Defending: 60 }),
    player('GK', 'Left', { Pace: 88, Shooting: 88, Physicality: 85, Passing: 55 }),
    player('RB', 'Right', { Sprint: 93, Acceleration: 91, Crossing: 84, Stamina: 90, AttWork: 80 }),
    player('RB', 'Right', { Passing: 90, Vision: 88, Ball: 85, Composure: 85, Sprint: 60 }),
    player('ST', 'Left', { Heading: 90, Strength: 92, Jumping: 88, Sprint: 50 }),
    player('ST', 'Right', { Finishing: 92, Positioning: 92, Reactions: 88, Passing: 55, Vision: 55 }),
    player('CB', 'Right', { Strength: 90, Aggression: 90, Heading: 85, Jumping: 85, Standing: 85 }),
  ];
  assert.deepEqual(eaRoles([...crowd, ...cases]).slice(crowd.length), [
    'SWEEPER_KEEPER', 'SHOT_STOPPER', 'WING_BACK', 'INVERTED_FULL_BACK', 'TARGET_FORWARD', 'POACHER', 'STOPPER',
  ]);
  // No attributes, no role.
  assert.deepEqual(eaRoles([{ position: 'ST', foot: 'Right', attributes: null }]), [null]);
});

test('FC 25 rows keep the FC 24 role where it fits their position, else none known', () => {
  assert.equal(fc25Role('ST', 'POACHER'), 'POACHER');
  assert.equal(fc25Role('CAM', 'POACHER'), '');
  assert.equal(fc25Role('ST', undefined), '');
});
