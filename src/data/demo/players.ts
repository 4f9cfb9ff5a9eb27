/** Players: created with a nationality, position and talent, rated each season, developed with age. */
import { stableId } from '../../domain/ids.js';
import { POSITION_GROUP, type PositionCode } from '../../domain/positions.js';
import { ROLES } from '../../domain/roles.js';
import { isoOfDay, ymd } from '../../domain/days.js';
import { yearsBetween } from './dates.js';
import { AGENCIES, ALIASES, NATIONALITIES } from './names.js';
import { AGENCY_WEIGHTS, clamp, HEIGHT, LEFT_SIDE, type Player, RIGHT_SIDE, ROLES_BY_POSITION, softCap, VARIANTS } from './model.js';
import { DemoState } from './state.js';

export function foreignNationality(dw: DemoState, exclude: string): string {
  const pool = NATIONALITIES.filter((n) => n.name !== exclude);
  return dw.rng.weighted(pool, pool.map((n) => n.exportWeight)).name;
}

export function birthForAge(dw: DemoState, age: number, refDay: number): number {
  // Stay clear of birthdays so the whole age on refDay is exactly `age`.
  return refDay - Math.floor((age + 0.02 + dw.rng.next() * 0.96) * 365.2425);
}

export function positionFor(dw: DemoState, slot: PositionCode): PositionCode {
  const v = VARIANTS[slot];
  return v ? dw.rng.weighted(v[0], v[1]) : slot;
}

export function createPlayer(dw: DemoState, nat: string, pos: PositionCode, birthDay: number, rating: number, talent: number): Player {
  const idx = dw.players.length;
  const n = dw.natByName.get(nat) ?? NATIONALITIES[0];
  let first = '';
  let last = '';
  for (let attempt = 0; attempt < 8; attempt++) {
    first = dw.rng.pick(n.first);
    last = dw.rng.pick(n.last);
    if (!dw.usedNames.has(`${first} ${last}`)) break;
  }
  dw.usedNames.add(`${first} ${last}`);
  const [hMean, hSd] = HEIGHT[pos];
  const leftShare = LEFT_SIDE.has(pos) ? 0.6 : RIGHT_SIDE.has(pos) ? 0.08 : 0.14;
  const u = dw.rng.next();
  const foot = u < 0.05 ? 'Both' : u < 0.05 + leftShare * 0.95 ? 'Left' : 'Right';
  const roles = ROLES_BY_POSITION.get(pos) ?? ROLES;
  const p: Player = {
    idx,
    row: {
      id: stableId('P', `demo:${dw.seed}:player:${idx}`),
      registry_a_id: 200_000 + idx * 13 + dw.rng.int(0, 12),
      registry_b_id: dw.rng.chance(0.85) ? 700_000 + idx * 11 + dw.rng.int(0, 10) : null,
      name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      alias: dw.rng.chance(n.aliasShare) ? dw.rng.pick(ALIASES) : null,
      nationality: n.name,
      birth_date: isoOfDay(birthDay),
      height_cm: Math.round(clamp(dw.rng.normal(hMean, hSd), 160, 204)),
      foot,
      position: pos,
      national_team_id: null,
      analysis_available: !dw.rng.chance(0.03),
    },
    birthDay,
    pos,
    group: POSITION_GROUP[pos],
    role: dw.rng.pick(roles).role,
    rating: clamp(rating, 38, 92),
    talent: clamp(Math.max(softCap(talent), rating), 38, 95),
    vNoise: dw.rng.normal(0, 0.2),
    vAr: 0,
    agency: dw.rng.chance(0.88) ? dw.rng.weighted(AGENCIES, AGENCY_WEIGHTS) : null,
    team: null,
    owner: null,
    lastClub: null,
    onLoan: false,
    contractEnd: 0,
    spells: [],
    open: null,
    status: 'active',
    movedSeason: -1,
    ratings: new Map(),
  };
  dw.players.push(p);
  return p;
}

/** Talent (peak) implied by a current rating at an age: the young have room to grow. */
export function talentFor(dw: DemoState, rating: number, age: number): number {
  return age < 27 ? rating + (27 - age) * 1.8 * dw.rng.uniform(0.4, 1.35) : rating + Math.abs(dw.rng.normal(0, 1));
}

export function ageOn(dw: DemoState, p: Player, day: number): number {
  return yearsBetween(p.birthDay, day);
}

export function potentialOf(dw: DemoState, p: Player, age: number): number {
  const r = p.rating;
  if (age < 27) return Math.max(r, p.talent);
  if (age < 30) return r + Math.max(0, p.talent - r) * ((30 - age) / 3);
  return r;
}

export function ensureRated(dw: DemoState, p: Player, s: number): void {
  if (s < dw.first || s > dw.current || p.ratings.has(s)) return;
  const age = ageOn(dw, p, ymd(s, 7, 1));
  const rating = clamp(Math.round(p.rating), 35, 94);
  const potNoise = age < 27 ? dw.rng.normal(0, 1.2) : 0;
  const potential = Math.max(rating, Math.min(95, Math.round(potentialOf(dw, p, age) + potNoise)));
  const avail = dw.rng.chance(0.75) ? dw.rng.uniform(0.85, 1) : dw.rng.uniform(0.35, 0.85);
  p.ratings.set(s, { rating, potential, form: dw.rng.normal(0, 2), avail });
  dw.ratings.push({ player_id: p.row.id, season: s, rating, potential, best_role: p.role, position: p.pos, source: 'demo' });
}

export function develop(dw: DemoState, p: Player, s: number): void {
  const age = ageOn(dw, p, ymd(s, 7, 1));
  const gap = p.talent - p.rating;
  let d: number;
  if (age < 24) d = gap * 0.3 + dw.rng.normal(0, 1.8);
  else if (age < 27) d = gap * 0.35 + dw.rng.normal(0, 1.2);
  else if (age < 30) d = (gap > 0 ? gap * 0.2 : 0) + dw.rng.normal(0, 1);
  else {
    const x = Math.max(0, age - (p.group === 'GK' ? 31 : 29));
    d = -(0.4 * x + 0.08 * x * x) + dw.rng.normal(0, 1.2);
  }
  p.rating = clamp(p.rating + d, 38, 92);
  if (age < 24) p.talent = softCap(p.talent + dw.rng.normal(0, 1.2));
  p.talent = clamp(Math.max(p.talent, p.rating), 38, 95);
  p.vAr = 0.6 * p.vAr + dw.rng.normal(0, 0.15);
}

// ---------------------------------------------------------------- money
