import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zoneOf } from './zones';

test('zones of a 20-club league: title, five European places, three relegated', () => {
  const zones = Array.from({ length: 20 }, (_, i) => zoneOf(i + 1, 20));
  assert.equal(zones[0], 'Title');
  assert.deepEqual(zones.slice(1, 6), Array(5).fill('European places'));
  assert.equal(zones[6], null);
  assert.deepEqual(zones.slice(17), Array(3).fill('Relegation'));
  assert.equal(zones[16], null);
});

test('a 12-club league: three European places, two relegated', () => {
  assert.equal(zoneOf(4, 12), 'European places');
  assert.equal(zoneOf(5, 12), null);
  assert.equal(zoneOf(10, 12), null);
  assert.equal(zoneOf(11, 12), 'Relegation');
});
