/** Career moves: spells opened and closed, permanent moves, loans and their returns, free signings. */
import { type Club, type Player, roundToQuotedStep, seasonOfDay, type Spell } from './model.js';
import { DemoState } from './state.js';
import { ageOn, ensureRated } from './players.js';
import { addTransfer, contractYears, sign, valueAt } from './money.js';

export function openSpell(dw: DemoState, p: Player, club: Club, day: number, loan: boolean, parent: Club | null): void {
  const spell: Spell = { club, start: day, end: null, loan, parent };
  p.spells.push(spell);
  p.open = spell;
  join(dw, p, club);
  if (club.kind === 'league') ensureRated(dw, p, seasonOfDay(day));
}

function join(dw: DemoState, p: Player, club: Club): void {
  if (p.team) drop(dw, p);
  p.team = club;
  club.team.add(p);
  club.groups[p.group]++;
}

export function drop(dw: DemoState, p: Player): void {
  if (!p.team) return;
  p.team.team.delete(p);
  p.team.groups[p.group]--;
  p.team = null;
}

export function closeSpell(dw: DemoState, p: Player, endDay: number): void {
  drop(dw, p);
  if (!p.open) return;
  if (endDay < p.open.start) throw new Error(`demo world: spell of player ${p.idx} would end before it starts`);
  p.open.end = endDay;
  p.open = null;
}

/** A permanent move (transfer, free signing or option to buy) on `day`. */
export function permanent(dw: DemoState, p: Player, to: Club, day: number, fee: number | null): void {
  const from = p.owner ?? p.lastClub;
  if (p.onLoan && p.owner) p.owner.loansOut--;
  p.onLoan = false;
  addTransfer(dw, p, day, from, to, fee, false);
  closeSpell(dw, p, day - 1);
  openSpell(dw, p, to, day, false, null);
  p.owner = to;
  p.lastClub = to;
  p.movedSeason = seasonOfDay(day);
  sign(dw, p, to, day, seasonOfDay(day) + contractYears(dw, ageOn(dw, p, day)));
  if (to.kind === 'foreign') p.status = 'abroad';
}

export function loan(dw: DemoState, p: Player, to: Club, day: number): void {
  const parent = p.owner;
  if (!parent) return;
  const s = seasonOfDay(day);
  // The registration must outlast the loan: extend first where needed.
  if (p.contractEnd < s + 1) sign(dw, p, parent, day, s + 1 + dw.rng.int(1, 3));
  const fee = dw.rng.chance(0.25) ? roundToQuotedStep(valueAt(dw, p, day, parent) * dw.rng.uniform(0.04, 0.15)) : 0;
  addTransfer(dw, p, day, parent, to, fee, true);
  closeSpell(dw, p, day - 1);
  openSpell(dw, p, to, day, true, parent);
  p.onLoan = true;
  parent.loansOut++;
  p.movedSeason = s;
}

export function loanReturn(dw: DemoState, p: Player, day: number): void {
  const parent = p.owner;
  if (!parent) return;
  addTransfer(dw, p, day, p.team, parent, 0, true);
  parent.loansOut--;
  p.onLoan = false;
  closeSpell(dw, p, day - 1);
  openSpell(dw, p, parent, day, false, null);
}

/** Leaves the club on `day - 1` without a new one: free agent or retired. */
export function leave(dw: DemoState, p: Player, day: number, status: Player['status']): void {
  if (p.onLoan && p.owner) p.owner.loansOut--;
  p.onLoan = false;
  p.lastClub = p.owner ?? p.team;
  p.owner = null;
  closeSpell(dw, p, day - 1);
  p.status = status;
}

export function freeSigning(dw: DemoState, p: Player, to: Club, day: number): void {
  addTransfer(dw, p, day, p.lastClub, to, 0, false);
  openSpell(dw, p, to, day, false, null);
  p.owner = to;
  p.lastClub = to;
  p.status = to.kind === 'foreign' ? 'abroad' : 'active';
  p.movedSeason = seasonOfDay(day);
  sign(dw, p, to, day, seasonOfDay(day) + contractYears(dw, ageOn(dw, p, day)));
}

export function inWorld(dw: DemoState, p: Player): boolean {
  return p.status === 'active' && p.owner !== null && p.owner.kind === 'league';
}

/**
 * At a club outside the leagues and already shown in the world (rated in a shown season): the market
 * keeps valuing him and his rating keeps ageing, so his listing never carries a stale value.
 */
export function shownAbroad(dw: DemoState, p: Player): boolean {
  return p.status === 'abroad' && p.team !== null && p.ratings.size > 0;
}

// ---------------------------------------------------------------- squads
