import assert from 'node:assert/strict';
import { test } from 'node:test';
import { links, parseRoute } from './router.ts';

test('each page link parses back to its page', () => {
  assert.deepEqual(parseRoute(links.competitions()), { page: 'competitions' });
  assert.deepEqual(parseRoute(''), { page: 'competitions' });
  assert.deepEqual(parseRoute(links.competition('PREMIER_DIVISION')), { page: 'competition', id: 'PREMIER_DIVISION' });
  const club = parseRoute(links.club('C1', new URLSearchParams({ remove: 'P1,P2' })));
  assert.equal(club.page, 'club');
  assert.equal(club.page === 'club' && club.query.get('remove'), 'P1,P2');
  const player = parseRoute(links.player('P9', { club: 'C2' }));
  assert.equal(player.page === 'player' && `${player.id} ${player.query.get('club')}`, 'P9 C2');
  const forecast = parseRoute(links.forecast('SERIE A', 'C7'));
  assert.equal(forecast.page === 'forecast' && `${forecast.id} ${forecast.query.get('club')}`, 'SERIE A C7');
  assert.deepEqual(parseRoute('#/nowhere/at/all'), { page: 'not-found' });
});
