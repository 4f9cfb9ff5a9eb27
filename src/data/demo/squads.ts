/** Squads: what a club needs by position, youth and imported players, the first season's squads. */
import { POSITION_GROUP, type PositionCode, type PositionGroup } from '../../domain/positions.js';
import { ymd } from '../../domain/days.js';
import type { LeagueDef } from './leagues.js';
import { AGE_WEIGHTS, type Club, fold, GROUP_TARGET, GROUPS, IMPORT_AGES, type Player, POSITION_TARGET, seasonOfDay, type Spell, XI_SLOTS } from './model.js';
import { DemoState } from './state.js';
import { allLeagueClubs } from './clubs.js';
import { ageOn, birthForAge, createPlayer, foreignNationality, positionFor, talentFor } from './players.js';
import { addTransfer, contractYears, feeFor, sign } from './money.js';
import { drop, openSpell, permanent } from './moves.js';

export function groupCount(dw: DemoState, club: Club, g: PositionGroup): number {
  return club.groups[g];
}

/** The folded position of the group the club is shortest of. */
export function neededPosition(dw: DemoState, club: Club, g: PositionGroup): PositionCode {
  const counts = new Map<PositionCode, number>();
  for (const p of club.team) if (p.group === g) counts.set(fold(p.pos), (counts.get(fold(p.pos)) ?? 0) + 1);
  let best: PositionCode | null = null;
  let bestDeficit = 0;
  for (const [pos, target] of POSITION_TARGET) {
    if (POSITION_GROUP[pos] !== g) continue;
    const deficit = target - (counts.get(pos) ?? 0);
    if (deficit > bestDeficit) {
      best = pos;
      bestDeficit = deficit;
    }
  }
  if (best) return best;
  const options = POSITION_TARGET.filter(([pos]) => POSITION_GROUP[pos] === g);
  return dw.rng.weighted(options.map(([pos]) => pos), options.map(([, n]) => n));
}

export function mostNeededGroup(dw: DemoState, club: Club): PositionGroup {
  let best: PositionGroup = 'MID';
  let bestDeficit = -Infinity;
  for (const g of GROUPS) {
    const deficit = (GROUP_TARGET[g] - groupCount(dw, club, g)) / GROUP_TARGET[g];
    if (deficit > bestDeficit) {
      best = g;
      bestDeficit = deficit;
    }
  }
  return best;
}

export function bestXi(dw: DemoState, club: Club): number {
  let sum = 0;
  for (const g of GROUPS) {
    const rs = [...club.team].filter((p) => p.group === g).map((p) => p.rating).sort((a, b) => b - a);
    for (let i = 0; i < XI_SLOTS[g]; i++) sum += rs[i] ?? 50;
  }
  return sum / 11;
}

function nationalityFor(dw: DemoState, club: Club, foreignShare: number): string {
  return dw.rng.chance(foreignShare) ? foreignNationality(dw, club.row.country ?? '') : (club.row.country ?? 'England');
}

/** A player who starts at `club` as an academy product on 1 July of a season. */
export function createYouth(dw: DemoState, club: Club, jul1: number, s: number, group?: PositionGroup): Player {
  const age = dw.rng.chance(0.6) ? 16 : 17;
  const g = group ?? dw.rng.weighted(GROUPS, [0.1, 0.32, 0.32, 0.26]);
  const pos = positionFor(dw, neededPosition(dw, club, g));
  const rating = club.q - 17 + dw.rng.normal(0, 4);
  const talent = rating + (27 - age) * 1.8 * dw.rng.uniform(0.5, 1.5);
  const p = createPlayer(dw, nationalityFor(dw, club, 0.18), pos, birthForAge(dw, age, jul1), rating, talent);
  p.owner = club;
  p.lastClub = club;
  p.movedSeason = s;
  openSpell(dw, p, club, jul1, false, null);
  sign(dw, p, club, jul1, s + 3);
  return p;
}

/** A player from outside the leagues: some years at a feeder club abroad, then the move on `day`. */
export function createImport(dw: DemoState, club: Club, g: PositionGroup, day: number, level: number): Player {
  const s = seasonOfDay(day);
  const age = dw.rng.weighted(IMPORT_AGES.map(([a]) => a), IMPORT_AGES.map(([, w]) => w));
  const home = club.row.country ?? 'England';
  const lower = dw.foreign.filter((f) => f.row.country === home);
  const source = lower.length > 0 && dw.rng.chance(0.45) ? dw.rng.pick(lower) : dw.rng.pick(dw.foreign.filter((f) => f.feeder && f.row.country !== home));
  const sourceCountry = source.row.country ?? '';
  const nat = sourceCountry === home
    ? (dw.rng.chance(0.85) ? home : foreignNationality(dw, home))
    : dw.rng.chance(0.6) && dw.natByName.has(sourceCountry) ? sourceCountry : dw.rng.chance(0.15) ? home : foreignNationality(dw, home);
  const rating = level + dw.rng.normal(0, 3) - Math.max(0, 22 - age) * 1.5;
  const pos = positionFor(dw, neededPosition(dw, club, g));
  const p = createPlayer(dw, nat, pos, birthForAge(dw, age, day), rating, talentFor(dw, rating, age));
  const startSeason = Math.max(s - dw.rng.int(1, 4), seasonOfDay(p.birthDay) + 17);
  const start = ymd(Math.min(startSeason, s - 1), 7, 1) + dw.rng.int(0, 40);
  openSpell(dw, p, source, start, false, null);
  sign(dw, p, source, start, s + dw.rng.int(1, 2));
  p.owner = null;
  p.lastClub = source;
  permanent(dw, p, club, day, feeFor(dw, p, day, source, club));
  return p;
}

export function initialSquads(dw: DemoState, s: number): void {
  const jul1 = ymd(s, 7, 1);
  const template: PositionCode[] = ['GK', 'GK', 'GK', 'CB', 'CB', 'CB', 'CB', 'LB', 'LB', 'RB', 'RB', 'CDM', 'CDM', 'CM', 'CM', 'CM', 'LM', 'RM', 'CAM', 'CAM', 'ST', 'ST', 'CF', 'LW', 'RW'];
  const all = allLeagueClubs(dw);
  for (const club of all) {
    const league = club.league as LeagueDef;
    const slots: PositionCode[] = [...template, dw.rng.pick(['CB', 'LB', 'RB'] as const), dw.rng.pick(['ST', 'LW', 'RW'] as const)];
    const extras = dw.rng.int(0, 2);
    for (let i = 0; i < extras; i++) slots.push(dw.rng.pick(template));
    for (const slot of slots) {
      const age = dw.rng.weighted(AGE_WEIGHTS.map(([a]) => a), AGE_WEIGHTS.map(([, w]) => w));
      const rating = club.q - 1.5 + dw.rng.normal(0, 3.5) - Math.max(0, 23 - age) * 2 - Math.max(0, age - 32) * 1.5;
      const p = createPlayer(dw, nationalityFor(dw, club, league.foreignShare), positionFor(dw, slot), birthForAge(dw, age, jul1), rating, talentFor(dw, rating, age));
      const homegrown = p.row.nationality === club.row.country && dw.rng.chance(age <= 21 ? 0.6 : 0.15);
      if (homegrown) {
        const academy = s - (age - 16);
        openSpell(dw, p, club, ymd(academy, 7, 1), false, null);
        p.owner = club;
        p.lastClub = club;
        const endYear = s + 1 + dw.rng.int(0, 3);
        const signedSeason = Math.min(s, Math.max(academy, endYear - dw.rng.int(2, 5)));
        sign(dw, p, club, ymd(signedSeason, 7, 1) + dw.rng.int(0, 50), endYear);
        continue;
      }
      // Joined some summers ago from another club (same country, abroad in the leagues, or outside them).
      const j = Math.min(dw.rng.weighted([0, 1, 2, 3, 4], [3, 3, 2.5, 1.5, 1]), Math.max(0, age - 18));
      const joinSeason = s - j;
      const joinDay = j === 0 ? dw.rng.int(ymd(s, 7, 2), ymd(s, 8, 31)) : ymd(joinSeason, 7, 1) + dw.rng.int(1, 60);
      const u = dw.rng.next();
      const candidates = u < 0.35 ? all.filter((c) => c !== club && c.row.country === club.row.country) : u < 0.6 ? all.filter((c) => c !== club) : dw.foreign.filter((f) => f.feeder);
      const prev = dw.rng.pick(candidates);
      const ageAtJoin = Math.floor(ageOn(dw, p, joinDay));
      const prevStartSeason = Math.max(joinSeason - dw.rng.int(1, 4), joinSeason - Math.max(1, ageAtJoin - 16));
      const prevStart = ymd(prevStartSeason, 7, 1) + dw.rng.int(0, 30);
      openSpell(dw, p, prev, prevStart, false, null);
      drop(dw, p);
      sign(dw, p, prev, prevStart, joinSeason + dw.rng.int(1, 2));
      p.lastClub = prev;
      const fee = dw.rng.chance(0.15) ? 0 : feeFor(dw, p, joinDay, prev, club);
      addTransfer(dw, p, joinDay, prev, club, fee, false);
      p.open = null;
      (p.spells[p.spells.length - 1] as Spell).end = joinDay - 1;
      openSpell(dw, p, club, joinDay, false, null);
      p.owner = club;
      p.lastClub = club;
      p.movedSeason = joinSeason;
      sign(dw, p, club, joinDay, Math.max(s + 1, joinSeason + contractYears(dw, ageAtJoin)));
    }
  }
}
