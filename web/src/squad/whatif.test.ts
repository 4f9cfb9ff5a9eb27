import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byLine } from './lines.ts';
import { applyWhatIf, isUnchanged, NO_CHANGE, removePlayer, setPosition, whatIfFromQuery, whatIfToQuery, type SquadEntry } from './whatif.ts';

const actual: SquadEntry[] = [
  { player_id: 'PA', position: 'GK', name: 'A' },
  { player_id: 'PB', position: 'CB', name: 'B' },
  { player_id: 'PC', position: 'ST', name: 'C' },
];

test('removing, moving and adding change the squad sent to the analysis', () => {
  let w = removePlayer(NO_CHANGE, 'PB', true);
  w = setPosition(w, 'PC', 'RW');
  w = setPosition(w, 'PX', 'CB');
  assert.deepEqual(applyWhatIf(actual, w), [
    { player_id: 'PA', position: 'GK', name: 'A' },
    { player_id: 'PC', position: 'RW', name: 'C' },
    { player_id: 'PX', position: 'CB' },
  ]);
  // Taking out an added player forgets him; he was never in the actual squad.
  const back = removePlayer(w, 'PX', false);
  assert.deepEqual(back.remove, ['PB']);
  assert.equal(back.set.PX, undefined);
  assert.ok(isUnchanged(NO_CHANGE) && !isUnchanged(back));
});

test('a what-if survives its URL and malformed parts are dropped', () => {
  const w = setPosition(removePlayer(NO_CHANGE, 'PB', true), 'PX', 'CB');
  assert.deepEqual(whatIfFromQuery(whatIfToQuery(w)), w);
  const odd = whatIfFromQuery(new URLSearchParams('remove=PB,<script>,PB&set=PX:CB,PY:zz,PZ'));
  assert.deepEqual(odd, { remove: ['PB'], set: { PX: 'CB' } });
});

test('squad lines follow the position catalogue', () => {
  const lines = byLine([...actual, { player_id: 'PD', position: 'LB' }, { player_id: 'PE', position: '??' }]);
  assert.deepEqual(lines.map((l) => `${l.name}:${l.entries.map((e) => e.player_id).join('')}`), ['Goalkeepers:PA', 'Defence:PDPB', 'Midfield:', 'Attack:PC', 'Other:PE']);
});
