/** Money: a player's market value, a move's fee, contracts signed and the transfer rows. */
import type { ContractRow } from '../../domain/world.js';
import { isoOfDay, ymd } from '../../domain/days.js';
import { yearsBetween } from './dates.js';
import { AGENCIES } from './names.js';
import { clamp, type Club, type Player, roundToQuotedStep, seasonOfDay } from './model.js';
import { DemoState } from './state.js';
import { ageOn, potentialOf } from './players.js';

/**
 * The market's age curve in log value, beside rating and potential (linear between the knots): the
 * young are priced below their rating until they prove it, the peak is in the mid-twenties, and the
 * fall from 27 adds to the rating's own decline. Tuned with bench/demo-world.ts against the real data.
 */
const AGE_VALUE: readonly (readonly [number, number])[] = [
  [16, -0.9], [18, -0.85], [20, -0.7], [22, -0.35], [24, 0], [25, 0], [27, -0.2], [29, -0.6], [31, -0.9], [33, -1], [36, -1.1], [40, -1.4],
];

function ageValue(age: number): number {
  const k = AGE_VALUE;
  if (age <= k[0][0]) return k[0][1];
  for (let i = 1; i < k.length; i++) {
    if (age <= k[i][0]) return k[i - 1][1] + ((k[i][1] - k[i - 1][1]) * (age - k[i - 1][0])) / (k[i][0] - k[i - 1][0]);
  }
  return k[k.length - 1][1];
}

export function valueAt(dw: DemoState, p: Player, day: number, club: Club | null): number {
  const age = ageOn(dw, p, day);
  const r = p.rating;
  const pot = potentialOf(dw, p, age);
  const eff = r + Math.max(0, pot - r) * clamp((27 - age) / 18, 0, 0.5);
  // Past 29 the rating counts for less: the market pays an old star little more than a journeyman.
  const slope = 0.165 * (1 - 0.05 * Math.max(0, age - 29));
  let lv = Math.log(7.5e6) + slope * (eff - 75) + p.vNoise + p.vAr + ageValue(age);
  // Wonderkids: a potential above 80 is paid for in full up to 21, less and less until 25.
  lv += 0.12 * Math.max(0, pot - 80) * clamp((25 - age) / 4, 0, 1);
  if (club?.league) lv += club.league.valueAdj + 0.05 * (club.q - club.league.base);
  else lv -= 0.5;
  if (p.contractEnd > 0 && yearsBetween(day, ymd(p.contractEnd, 6, 30)) < 1) lv -= 0.12;
  let v = Math.exp(lv);
  if (v > 120e6) v = 120e6 + (v - 120e6) * 0.4;
  return roundToQuotedStep(clamp(v, 50_000, 200e6));
}

export function feeFor(dw: DemoState, p: Player, day: number, from: Club, to: Club): number | null {
  const value = valueAt(dw, p, day, from);
  const left = yearsBetween(day, ymd(p.contractEnd, 6, 30));
  const contract = left < 0.6 ? 0.5 : left < 1.5 ? 0.8 : left < 2.5 ? 1 : 1.15;
  const age = ageOn(dw, p, day);
  const ageF = age <= 21 ? 1.2 : age >= 32 ? 0.6 : age >= 30 ? 0.8 : 1;
  const premium = Math.exp(0.025 * clamp(to.q - from.q, -8, 10));
  const unknown = from.kind === 'foreign' || to.kind === 'foreign' ? 0.3 : 0.08;
  const fee = roundToQuotedStep(Math.min(200e6, value * contract * ageF * premium * Math.exp(dw.rng.normal(0, 0.3))));
  return dw.rng.chance(unknown) ? null : fee;
}

export function contractYears(dw: DemoState, age: number): number {
  if (age <= 23) return dw.rng.weighted([3, 4, 5], [0.35, 0.35, 0.3]);
  if (age <= 29) return dw.rng.weighted([2, 3, 4, 5], [0.2, 0.35, 0.3, 0.15]);
  if (age <= 32) return dw.rng.weighted([1, 2, 3], [0.35, 0.45, 0.2]);
  return dw.rng.weighted([1, 2], [0.7, 0.3]);
}

/** Signs a contract ending on 30 June of `endYear` (1 to 5 years after the signing season). */
export function sign(dw: DemoState, p: Player, club: Club, day: number, endYear: number): void {
  const s = seasonOfDay(day);
  const end = clamp(endYear, s + 1, s + 5);
  if (p.agency !== null && dw.rng.chance(0.04)) p.agency = dw.rng.pick(AGENCIES);
  else if (p.agency === null && dw.rng.chance(0.05)) p.agency = dw.rng.pick(AGENCIES);
  p.contractEnd = end;
  const key = (p.idx * 100_000 + day) * 1000 + club.idx;
  const existing = dw.contractKeys.get(key);
  if (existing) {
    existing.end_date = `${end}-06-30`;
    return;
  }
  const row: ContractRow = { player_id: p.row.id, club_id: club.row.id, signed_date: isoOfDay(day), end_date: `${end}-06-30`, agency_name: p.agency };
  dw.contractKeys.set(key, row);
  dw.contracts.push(row);
}

export function addTransfer(dw: DemoState, p: Player, day: number, from: Club | null, to: Club | null, fee: number | null, isLoan: boolean): void {
  dw.transfers.push({
    id: `T${dw.seed}-${String(dw.transfers.length + 1).padStart(6, '0')}`,
    player_id: p.row.id,
    date: isoOfDay(day),
    from_club_id: from?.row.id ?? null,
    to_club_id: to?.row.id ?? null,
    fee_eur: fee,
    market_value_eur: from ? valueAt(dw, p, day, from) : null,
    is_loan: isLoan,
  });
}

// ---------------------------------------------------------------- career moves
