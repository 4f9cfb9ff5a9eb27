import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bestXi, squadStrength, positionPenalty, FORMATIONS, type SquadPlayer } from '../../../src/valuation/league/squad.js';

const squad: SquadPlayer[] = [
  { playerId: 'gk1', position: 'GK', rating: 80 },
  { playerId: 'gk2', position: 'GK', rating: 70 },
  { playerId: 'lb', position: 'LB', rating: 75 },
  { playerId: 'cb1', position: 'CB', rating: 78 },
  { playerId: 'cb2', position: 'CB', rating: 77 },
  { playerId: 'cb3', position: 'CB', rating: 60 },
  { playerId: 'rb', position: 'RB', rating: 74 },
  { playerId: 'cdm', position: 'CDM', rating: 76 },
  { playerId: 'cm1', position: 'CM', rating: 79 },
  { playerId: 'cm2', position: 'CM', rating: 73 },
  { playerId: 'cm3', position: 'CM', rating: 65 },
  { playerId: 'lw', position: 'LW', rating: 82 },
  { playerId: 'rw', position: 'RW', rating: 81 },
  { playerId: 'st1', position: 'ST', rating: 84 },
  { playerId: 'st2', position: 'ST', rating: 50 },
];

test('penalties: own position free, neighbours cheap, other groups dear, GK only in goal', () => {
  assert.equal(positionPenalty('CB', 'CB'), 0);
  assert.equal(positionPenalty('CB', 'CDM'), 3);
  assert.equal(positionPenalty('LW', 'LM'), 2);
  assert.equal(positionPenalty('RM', 'RW'), 2);
  assert.ok(positionPenalty('CB', 'ST') >= 10);
  assert.equal(positionPenalty('GK', 'CB'), Infinity);
  assert.ok(positionPenalty('ST', 'GK') >= 30);
  for (const f of Object.values(FORMATIONS)) assert.equal(f.length, 11);
});

test('best XI picks the right players and formation', () => {
  const xi = bestXi(squad);
  assert.equal(xi.formation, '4-3-3');
  const picked = xi.picks.map((p) => p.playerId).sort();
  assert.deepEqual(picked, ['cb1', 'cb2', 'cdm', 'cm1', 'cm2', 'gk1', 'lb', 'lw', 'rb', 'rw', 'st1']);
  assert.ok(xi.picks.every((p) => p.penalty === 0));
  assert.ok(Math.abs(xi.xiRating - 859 / 11) < 1e-9);
  // input order does not matter
  assert.deepEqual(bestXi([...squad].reverse()), xi);
});

test('a missing position is filled by the cheapest neighbour; no goalkeeper means a stand-in, not an outfielder', () => {
  const only433 = { formations: { '4-3-3': FORMATIONS['4-3-3'] } };
  const noRb = bestXi(squad.filter((p) => p.playerId !== 'rb'), only433);
  // cb1 moves to RB (-4), the CDM drops to CB (-3) and cm3 covers CDM (-1): 1 point better than cb3 at RB
  const rb = noRb.picks.find((p) => p.slot === 'RB')!;
  assert.deepEqual([rb.playerId, rb.penalty], ['cb1', 4]);
  assert.deepEqual(noRb.picks.filter((p) => p.slot === 'CB').map((p) => p.playerId).sort(), ['cb2', 'cdm']);
  assert.equal(noRb.picks.find((p) => p.slot === 'CDM')!.playerId, 'cm3');
  assert.ok(Math.abs(noRb.xiRating - 842 / 11) < 1e-9);

  const noGk = bestXi(squad.filter((p) => p.position !== 'GK'), only433);
  const gk = noGk.picks.find((p) => p.slot === 'GK')!;
  assert.equal(gk.playerId, null);
  assert.equal(gk.effectiveRating, 40);
});

test('a strong 4-4-2 squad plays 4-4-2', () => {
  const s442: SquadPlayer[] = [
    ...squad.filter((p) => !['lw', 'rw', 'st2', 'cdm'].includes(p.playerId)),
    { playerId: 'lm', position: 'LM', rating: 80 },
    { playerId: 'rm', position: 'RM', rating: 80 },
    { playerId: 'st3', position: 'ST', rating: 83 },
  ];
  assert.equal(bestXi(s442).formation, '4-4-2');
});

test('ties are broken by player id, whatever the input order', () => {
  const twins: SquadPlayer[] = [...squad, { playerId: 'aa-st', position: 'ST', rating: 84 }];
  const only433 = { formations: { '4-3-3': FORMATIONS['4-3-3'] } };
  const a = bestXi(twins, only433);
  const b = bestXi([...twins].reverse(), only433);
  assert.deepEqual(a, b);
  assert.ok(a.picks.some((p) => p.playerId === 'aa-st'));
  assert.ok(!a.picks.some((p) => p.playerId === 'st1'));
  assert.throws(() => bestXi([...squad, squad[0]]), /duplicate/);
});

test('depth counts the next best by group, with stand-ins for missing places', () => {
  const s = squadStrength(squad);
  // bench: GK gk2 70; DEF cb3 60 + stand-in 40; MID cm3 65 + stand-in 40; FWD st2 50 + stand-in 40
  assert.ok(Math.abs(s.depthRating - 365 / 7) < 1e-9);
  assert.deepEqual(s.features, { xi: s.xiRating, depth: s.depthRating });
  const deeper = squadStrength([...squad, { playerId: 'cb4', position: 'CB', rating: 72 }]);
  assert.ok(deeper.depthRating > s.depthRating);
  assert.equal(deeper.xiRating, s.xiRating);
});

test('start shares: regulars start most games, backups few, capped by availability; deterministic', () => {
  const s = squadStrength(squad, { seed: 5 });
  assert.deepEqual(squadStrength([...squad].reverse(), { seed: 5 }), s);
  const sh = s.startShares;
  assert.equal(Object.keys(sh).length, squad.length);
  for (const v of Object.values(sh)) assert.ok(v >= 0 && v <= 0.9 + 0.05);
  assert.ok(sh.gk1 > 0.75 && sh.gk2 > 0.04 && sh.gk2 < 0.2, `gk1 ${sh.gk1}, gk2 ${sh.gk2}`);
  assert.ok(sh.st1 > 0.75 && sh.cm1 > 0.75);
  assert.ok(sh.st2 < sh.cm3 || sh.st2 < 0.3);
  const total = Object.values(sh).reduce((a, b) => a + b, 0);
  assert.ok(total <= 11 && total > 10, `total starts per match ${total}`);

  // a better goalkeeper takes gk1's starts; outfield players keep their own draws and shares
  const signed = squadStrength([...squad, { playerId: 'gkstar', position: 'GK', rating: 88 }], { seed: 5 });
  assert.ok(signed.startShares.gkstar > 0.85);
  assert.ok(signed.startShares.gk1 < 0.15 && signed.startShares.gk2 < 0.02);
  for (const p of squad) if (p.position !== 'GK') assert.equal(signed.startShares[p.playerId], sh[p.playerId]);
  // with two striker places available the formation changes to use both
  const free = squadStrength([...squad, { playerId: 'star', position: 'ST', rating: 90 }], { seed: 5 });
  assert.ok(['4-4-2', '3-5-2', '4-1-2-1-2'].includes(free.formation));
  assert.ok(free.startShares.st1 > 0.8);
});

test('the assignment is optimal: brute force on a five-slot formation', () => {
  const formation = ['GK', 'CB', 'CDM', 'LM', 'ST'] as const;
  const xi = bestXi(squad, { formations: { small: formation } });
  let best = -Infinity;
  const n = squad.length;
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) for (let c = 0; c < n; c++) for (let d = 0; d < n; d++) for (let e = 0; e < n; e++) {
    const idx = [a, b, c, d, e];
    if (new Set(idx).size < 5) continue;
    if (idx.some((j, i) => squad[j].position === 'GK' && formation[i] !== 'GK')) continue;
    const total = idx.reduce((t, j, i) => t + squad[j].rating - positionPenalty(squad[j].position, formation[i]), 0);
    if (total > best) best = total;
  }
  assert.ok(Math.abs(xi.xiRating * 5 - best) < 1e-9, `${xi.xiRating * 5} vs brute force ${best}`);
});
