import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitTie, strengthFor, tieRows, type TieRow } from '../../../src/valuation/league/tie.js';
import { fitStrength, type MatchRow } from '../../../src/valuation/league/strength.js';
import { squadStrength, type SquadPlayer } from '../../../src/valuation/league/squad.js';

// attack and defence rise with XI rating (0.04 per point) and depth (0.01), plus club-specific noise
const noise = [0.05, -0.08, 0.02, 0.07, -0.03, -0.04, 0.06, -0.05];
const rows: TieRow[] = noise.map((e, i) => {
  const xi = 66 + i * 2, depth = 55 + ((i * 3) % 8);
  return { club: `c${i}`, xi, depth, attack: 0.04 * (xi - 73) + 0.01 * (depth - 58) + e, defence: 0.03 * (xi - 73) - e / 2 };
});

test('the actual squad reproduces the results-based strength exactly', () => {
  const tie = fitTie(rows);
  for (const r of rows) {
    const s = strengthFor(tie, r.club, { xi: r.xi, depth: r.depth });
    assert.ok(Math.abs(s.attack - r.attack) < 1e-12 && Math.abs(s.defence - r.defence) < 1e-12);
  }
  assert.ok(tie.attack.beta.xi > 0.03 && tie.attack.beta.xi < 0.05, `slope ${tie.attack.beta.xi}`);
  assert.ok(tie.attack.rSquared > 0.8);
});

test('a stronger squad raises attack and defence along the fitted slope; the residual is kept', () => {
  const tie = fitTie(rows);
  const r = rows[3];
  const base = strengthFor(tie, r.club, { xi: r.xi, depth: r.depth });
  const better = strengthFor(tie, r.club, { xi: r.xi + 1.5, depth: r.depth + 1 });
  assert.ok(better.attack > base.attack && better.defence > base.defence);
  assert.ok(Math.abs(better.attack - base.attack - (1.5 * tie.attack.beta.xi + tie.attack.beta.depth)) < 1e-12);
  // an unknown club gets the fitted part only
  const unknown = strengthFor(tie, 'promoted', { xi: tie.featureMean.xi, depth: tie.featureMean.depth });
  assert.ok(Math.abs(unknown.attack - tie.attack.alpha) < 1e-12);
});

test('a residual weight keeps that share of the residual: halfway between results and squad; what-if moves are unchanged', () => {
  const tie = fitTie(rows);
  for (const r of rows) {
    const f = { xi: r.xi, depth: r.depth };
    const full = strengthFor(tie, r.club, f), none = strengthFor(tie, r.club, f, 0), half = strengthFor(tie, r.club, f, 0.5);
    assert.ok(Math.abs(half.attack - (full.attack + none.attack) / 2) < 1e-12 && Math.abs(half.defence - (full.defence + none.defence) / 2) < 1e-12);
    // weight 0: the squad alone (the fitted part)
    assert.ok(Math.abs(none.attack - (r.attack - tie.clubs[r.club].residual.attack)) < 1e-12);
    const better = strengthFor(tie, r.club, { xi: r.xi + 1.5, depth: r.depth }, 0.5);
    assert.ok(Math.abs(better.attack - half.attack - (strengthFor(tie, r.club, { xi: r.xi + 1.5, depth: r.depth }).attack - full.attack)) < 1e-12);
  }
});

test('slopes are never negative: a better squad never scores less or concedes more', () => {
  const upsideDown = rows.map((r) => ({ ...r, attack: -r.attack, defence: -r.defence }));
  const tie = fitTie(upsideDown);
  assert.ok(tie.attack.beta.xi >= 0 && tie.attack.beta.depth >= 0 && tie.defence.beta.xi >= 0 && tie.defence.beta.depth >= 0);
  const r = upsideDown[0];
  const a = strengthFor(tie, r.club, { xi: r.xi, depth: r.depth });
  const b = strengthFor(tie, r.club, { xi: r.xi + 5, depth: r.depth + 5 });
  assert.ok(b.attack >= a.attack && b.defence >= a.defence);
});

test('end to end: results -> strength, squads -> features, tie; a star signing raises attack', () => {
  const clubs = ['A', 'B', 'C', 'D', 'E', 'F'];
  const level = [85, 80, 76, 72, 68, 64];
  const squads: Record<string, SquadPlayer[]> = {};
  clubs.forEach((c, i) => {
    const positions = ['GK', 'GK', 'LB', 'CB', 'CB', 'CB', 'RB', 'CDM', 'CM', 'CM', 'CM', 'LW', 'RW', 'ST', 'ST'] as const;
    squads[c] = positions.map((p, k) => ({ playerId: `${c}${k}`, position: p, rating: level[i] - (k % 3) }));
  });
  const matches: MatchRow[] = [];
  let day = 1;
  for (let round = 0; round < 2; round++) {
    for (let h = 0; h < 6; h++) for (let a = 0; a < 6; a++) {
      if (h === a) continue;
      const diff = a - h; // the lower index is the better club
      matches.push({ date: `2024-${String(1 + Math.floor(day / 28)).padStart(2, '0')}-${String(1 + (day % 28)).padStart(2, '0')}`, home: clubs[h], away: clubs[a], homeGoals: Math.max(0, 1 + Math.round(diff / 2)), awayGoals: Math.max(0, 1 - Math.round(diff / 2)) });
      day++;
    }
  }
  const strength = fitStrength(matches, { asOf: '2024-06-30' });
  const features = Object.fromEntries(clubs.map((c) => [c, squadStrength(squads[c], { shareDraws: 10 }).features]));
  const tie = fitTie(tieRows(strength, features));
  assert.equal(tie.clubsUsed, 6);
  const actual = strengthFor(tie, 'D', features.D);
  assert.ok(Math.abs(actual.attack - strength.clubs.D.attack) < 1e-12);
  const withStar = squadStrength([...squads.D, { playerId: 'star', position: 'ST', rating: 90 }], { shareDraws: 10 }).features;
  const after = strengthFor(tie, 'D', withStar);
  assert.ok(withStar.xi > features.D.xi);
  assert.ok(after.attack > actual.attack || after.defence > actual.defence);
  assert.ok(after.attack >= actual.attack && after.defence >= actual.defence);
});
