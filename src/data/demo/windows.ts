/** Transfer windows: summer buying and loans, squads filled and trimmed, renewals, the winter window. */
import type { PositionCode, PositionGroup } from '../../domain/positions.js';
import { ymd } from '../../domain/days.js';
import { wholeAge } from './dates.js';
import { type Club, fold, GROUP_TARGET, GROUPS, type Listing, MAX_LOANS_OUT, type Player, roundToQuotedStep, SQUAD_MAX, SQUAD_MIN, XI_SLOTS } from './model.js';
import { DemoState } from './state.js';
import { allLeagueClubs } from './clubs.js';
import { ageOn, develop } from './players.js';
import { feeFor, sign } from './money.js';
import { closeSpell, freeSigning, inWorld, leave, loan, loanReturn, permanent } from './moves.js';
import { createImport, createYouth, groupCount, mostNeededGroup, neededPosition } from './squads.js';

export function windowRange(dw: DemoState, lo: number, hi: number): [number, number] | null {
  const top = Math.min(hi, dw.asOfDay);
  return lo <= top ? [lo, top] : null;
}

export function summer(dw: DemoState, s: number, window: [number, number] | null): void {
  const jul1 = ymd(s, 7, 1);
  const free: Player[] = [];
  for (const p of dw.players) {
    if (p.status !== 'abroad' || !p.open) continue;
    const age = wholeAge(p.birthDay, jul1);
    if (age >= 37 || (age >= 33 && dw.rng.chance(0.3))) {
      closeSpell(dw, p, jul1 - 1);
      p.status = 'retired';
    } else if (p.contractEnd <= s) {
      // Not renewed abroad: a free agent, whom a league club may sign.
      leave(dw, p, jul1, 'active');
      free.push(p);
    } else develop(dw, p, s);
  }
  const active = dw.players.filter((p) => p.status === 'active');
  for (const p of active) develop(dw, p, s);
  for (const p of active) {
    if (!p.onLoan) continue;
    const borrower = p.team as Club;
    if (p.contractEnd <= s) {
      leave(dw, p, jul1, 'active');
      free.push(p);
    } else if (borrower.kind === 'league' && ageOn(dw, p, jul1) < 25 && p.rating >= borrower.q - 3 && borrower.team.size < SQUAD_MAX && dw.rng.chance(0.25)) {
      permanent(dw, p, borrower, jul1, feeFor(dw, p, jul1, p.owner as Club, borrower));
    } else {
      loanReturn(dw, p, jul1);
    }
  }
  for (const p of active) {
    if (p.status !== 'active' || !p.owner) continue;
    const age = wholeAge(p.birthDay, jul1);
    const weak = p.rating < p.owner.q - 10 && age >= 30 ? 0.2 : 0;
    const base = age >= 38 ? 1 : age === 37 ? 0.8 : age === 36 ? 0.6 : age === 35 ? 0.45 : age === 34 ? 0.3 : age === 33 ? 0.15 : age === 32 ? 0.05 : 0;
    if (dw.rng.chance(base + weak)) leave(dw, p, jul1, 'retired');
    else if (p.contractEnd <= s) {
      leave(dw, p, jul1, 'active');
      free.push(p);
    }
  }
  const clubs = allLeagueClubs(dw);
  for (const club of clubs) {
    const n = dw.rng.weighted([1, 2, 3], [0.45, 0.4, 0.15]);
    for (let i = 0; i < n; i++) createYouth(dw, club, jul1, s);
  }
  if (!window) {
    for (const p of free) if (p.status === 'active' && !p.owner) p.status = 'retired';
    return;
  }
  const pool: Listing[] = free.map((p) => ({ p, free: true, sold: false, age: ageOn(dw, p, jul1) }));
  for (const club of clubs) {
    for (const p of club.team) {
      if (p.owner !== club || p.movedSeason === s) continue;
      const age = ageOn(dw, p, jul1);
      const listed =
        (p.rating >= club.q + 4 && age <= 30 && dw.rng.chance(0.45)) ||
        (p.rating < club.q - 7 && age >= 23 && dw.rng.chance(0.5)) ||
        (age >= 30 && p.rating < club.q + 2 && dw.rng.chance(0.3)) ||
        (p.contractEnd === s + 1 && age <= 30 && dw.rng.chance(0.25)) ||
        dw.rng.chance(0.04);
      if (listed) pool.push({ p, free: false, sold: false, age });
    }
  }
  const byRating = (x: Listing, y: Listing): number => x.p.rating - y.p.rating || x.p.idx - y.p.idx;
  const pools = new Map<PositionGroup, Listing[]>(GROUPS.map((g) => [g, pool.filter((l) => l.p.group === g).sort(byRating)]));
  const buyers = [...clubs].sort((a, b) => b.q - a.q || a.idx - b.idx);
  for (let round = 0; round < 3; round++) {
    for (const club of buyers) {
      for (const g of GROUPS) {
        let deficit = GROUP_TARGET[g] - groupCount(dw, club, g);
        while (deficit > 0) {
          const pos = neededPosition(dw, club, g);
          const pick = findCandidate(dw, pools, club, g, pos, club.q - 8, club.q + 4);
          if (!pick) break;
          buy(dw, pick, club, window);
          deficit--;
        }
      }
      if (round > 0) continue;
      const upgrades = dw.rng.weighted([0, 1, 2, 3], [0.2, 0.4, 0.3, 0.1]);
      for (let i = 0; i < upgrades; i++) {
        const g = dw.rng.weighted(GROUPS, [0.08, 0.3, 0.3, 0.32]);
        const rs = [...club.team].filter((p) => p.group === g).map((p) => p.rating).sort((a, b) => b - a);
        const weakestStarter = rs[XI_SLOTS[g] - 1] ?? 0;
        const pick = findCandidate(dw, pools, club, g, null, Math.max(club.q + 1, weakestStarter + 1), club.q + 6);
        if (!pick) continue;
        buy(dw, pick, club, window);
        if (groupCount(dw, club, g) > GROUP_TARGET[g] + 1) {
          const surplus = [...club.team]
            .filter((p) => p.group === g && p.owner === club && p.movedSeason !== s && ageOn(dw, p, jul1) > 21)
            .sort((a, b) => a.rating - b.rating)[0];
          if (surplus) {
            const l: Listing = { p: surplus, free: false, sold: false, age: ageOn(dw, surplus, jul1) };
            pool.push(l);
            const list = pools.get(g) as Listing[];
            list.push(l);
            list.sort(byRating);
          }
        }
      }
    }
  }
  // Unwanted free agents go abroad or stop.
  const destinations = dw.foreign;
  for (const l of pool) {
    if (!l.free || l.sold) continue;
    const p = l.p;
    if (l.age <= 32 && p.rating >= 58 && dw.rng.chance(0.8)) {
      const options = destinations.filter((f) => f !== p.lastClub && (l.age < 29 || !f.feeder));
      const to = dw.rng.pick(options);
      freeSigning(dw, p, to, dw.rng.int(window[0], window[1]));
    } else {
      p.status = 'retired';
    }
  }
}

function findCandidate(dw: DemoState, pools: Map<PositionGroup, Listing[]>, buyer: Club, g: PositionGroup, pos: PositionCode | null, lo: number, hi: number): Listing | null {
  let best: Listing | null = null;
  let bestScore = -Infinity;
  // Pools are sorted by rating: start at the first listing inside the window.
  const list = pools.get(g) ?? [];
  let a = 0;
  let b = list.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (list[mid].p.rating < lo) a = mid + 1;
    else b = mid;
  }
  // A free agent costs no fee: a club signs one a little above its level when he is there to be had.
  const hiFree = hi + 4;
  for (let i = a; i < list.length && list[i].p.rating <= hiFree; i++) {
    const l = list[i];
    const p = l.p;
    if (l.sold || p.owner === buyer || p.team === buyer || p.rating < lo || p.rating > (l.free ? hiFree : hi)) continue;
    if (p.movedSeason === dw.season || (l.free ? p.lastClub === buyer : p.status !== 'active' || p.onLoan)) continue;
    const old = Math.max(0, l.age - 28);
    // Clubs prefer players they know: their own nationals and those playing in the same country.
    const home = (p.row.nationality === buyer.row.country ? 1.5 : 0) + ((p.owner ?? p.lastClub)?.row.country === buyer.row.country ? 1 : 0);
    const score = p.rating + dw.rng.uniform(-3, 3) - 0.5 * old * old + (pos && fold(p.pos) === pos ? 3 : 0) + (l.free ? 1 : 0) + home;
    if (score > bestScore) {
      best = l;
      bestScore = score;
    }
  }
  return best;
}

function buy(dw: DemoState, l: Listing, club: Club, window: [number, number]): void {
  const day = dw.rng.int(window[0], window[1]);
  l.sold = true;
  if (l.free) freeSigning(dw, l.p, club, day);
  else permanent(dw, l.p, club, day, feeFor(dw, l.p, day, l.p.owner as Club, club));
}

function loanBorrower(dw: DemoState, p: Player, parent: Club, maxSize: number): Club | null {
  const options = allLeagueClubs(dw).filter(
    (c) => c !== parent && c.q >= p.rating - 1 && c.q <= p.rating + 6 && c.team.size < maxSize && groupCount(dw, c, p.group) <= GROUP_TARGET[p.group],
  );
  if (options.length > 0 && dw.rng.chance(0.85)) return dw.rng.pick(options);
  return dw.rng.chance(0.5) ? dw.rng.pick(dw.foreign.filter((f) => f.feeder)) : null;
}

export function summerLoans(dw: DemoState, s: number, window: [number, number] | null): void {
  if (!window) return;
  const jul1 = ymd(s, 7, 1);
  for (const club of allLeagueClubs(dw)) {
    const young = [...club.team]
      .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && ageOn(dw, p, jul1) <= 22 && p.rating < club.q - 4)
      .sort((a, b) => a.rating - b.rating || a.idx - b.idx);
    for (const p of young) {
      if (club.loansOut >= MAX_LOANS_OUT) break;
      if (!dw.rng.chance(0.45)) continue;
      const to = loanBorrower(dw, p, club, SQUAD_MAX);
      if (to) loan(dw, p, to, dw.rng.int(window[0], window[1]));
    }
  }
}

export function fillAndTrim(dw: DemoState, s: number, window: [number, number] | null): void {
  const jul1 = ymd(s, 7, 1);
  const day = (): number => (window ? dw.rng.int(window[0], window[1]) : jul1);
  for (const club of allLeagueClubs(dw)) {
    // Every group stays playable (three keepers), then the squad reaches its minimum size.
    for (const g of GROUPS) {
      while (groupCount(dw, club, g) < GROUP_TARGET[g] - (g === 'GK' ? 0 : 1)) {
        if (window) createImport(dw, club, g, day(), club.q - 2);
        else createYouth(dw, club, jul1, s, g);
      }
    }
    while (club.team.size < SQUAD_MIN) {
      const g = mostNeededGroup(dw, club);
      if (window) createImport(dw, club, g, day(), club.q - 2);
      else createYouth(dw, club, jul1, s);
    }
    if (!window) continue;
    while (club.team.size > SQUAD_MAX) {
      const surplus = [...club.team]
        .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && groupCount(dw, club, p.group) > GROUP_TARGET[p.group] - 1)
        .sort((a, b) => a.rating - Math.max(0, 24 - ageOn(dw, a, jul1)) * 1.5 - (b.rating - Math.max(0, 24 - ageOn(dw, b, jul1)) * 1.5) || a.idx - b.idx)[0];
      if (!surplus) break;
      const lower = allLeagueClubs(dw).filter((c) => c !== club && c.q <= surplus.rating + 3 && c.q >= surplus.rating - 6 && c.team.size < SQUAD_MAX - 1);
      const to = lower.length > 0 && dw.rng.chance(0.5) ? dw.rng.pick(lower) : dw.rng.pick(dw.foreign);
      const d = day();
      permanent(dw, surplus, to, d, feeFor(dw, surplus, d, club, to));
    }
  }
}

export function renewals(dw: DemoState, s: number): void {
  for (const p of dw.players) {
    const abroad = p.status === 'abroad' && p.open !== null && !p.onLoan;
    if (!inWorld(dw, p) && !abroad) continue;
    const owner = (abroad ? p.team : p.owner) as Club;
    const age = ageOn(dw, p, ymd(s, 10, 1));
    let prob = 0;
    let end = 0;
    if (abroad) {
      // Clubs abroad keep their players while they are young enough; the rest become free agents.
      if (p.contractEnd === s + 1) {
        prob = age <= 30 ? 0.55 : age <= 33 ? 0.35 : 0.15;
        end = s + 1 + dw.rng.int(1, age >= 31 ? 2 : 3);
      }
    } else if (p.contractEnd === s + 1) {
      // Clubs keep the players they value, and let old or unused ones go.
      const keep = p.rating >= owner.q - 2 ? 0.9 : p.rating >= owner.q - 6 ? 0.55 : age <= 23 ? 0.6 : 0.2;
      prob = keep * (age >= 34 ? 0.3 : age >= 32 ? 0.5 : age >= 30 ? 0.75 : 1);
      end = s + 1 + (age >= 31 ? dw.rng.int(1, 2) : dw.rng.int(1, 4));
    } else if (p.contractEnd === s + 2 && p.rating >= owner.q && age <= 28) {
      prob = 0.35;
      end = s + 2 + dw.rng.int(1, 3);
    }
    if (prob === 0 || !dw.rng.chance(prob)) continue;
    const day = dw.rng.int(ymd(s, 9, 1), ymd(s + 1, 4, 30));
    if (day > dw.asOfDay) continue;
    sign(dw, p, owner, day, end);
  }
}

export function winter(dw: DemoState, s: number): void {
  const window = windowRange(dw, ymd(s + 1, 1, 3), ymd(s + 1, 1, 31));
  if (!window) return;
  const clubs = allLeagueClubs(dw);
  for (const club of clubs) {
    if (dw.rng.chance(0.3) && club.team.size > SQUAD_MIN && club.loansOut < MAX_LOANS_OUT) {
      const day = dw.rng.int(window[0], window[1]);
      const cand = [...club.team]
        .filter((p) => p.owner === club && !p.onLoan && p.movedSeason !== s && ageOn(dw, p, day) <= 22 && p.rating < club.q - 4 && groupCount(dw, club, p.group) >= GROUP_TARGET[p.group])
        .sort((a, b) => a.rating - b.rating || a.idx - b.idx)[0];
      const to = cand ? loanBorrower(dw, cand, club, SQUAD_MAX) : null;
      if (cand && to) loan(dw, cand, to, day);
    }
    if (dw.rng.chance(0.18) && club.team.size < SQUAD_MAX) {
      const day = dw.rng.int(window[0], window[1]);
      const g = dw.rng.weighted(GROUPS, [0.05, 0.3, 0.3, 0.35]);
      let best: Player | null = null;
      let bestScore = -Infinity;
      for (const seller of clubs) {
        if (seller === club || seller.team.size <= SQUAD_MIN) continue;
        for (const p of seller.team) {
          if (p.group !== g || p.owner !== seller || p.onLoan || p.movedSeason === s || p.rating < club.q + 1 || p.rating > club.q + 7) continue;
          if (groupCount(dw, seller, g) < GROUP_TARGET[g]) continue;
          const score = p.rating + dw.rng.normal(0, 2) + (p.row.nationality === club.row.country ? 1.5 : 0) + (seller.row.country === club.row.country ? 1 : 0);
          if (score > bestScore) {
            best = p;
            bestScore = score;
          }
        }
      }
      if (best) {
        const fee = feeFor(dw, best, day, best.owner as Club, club);
        // January deals carry a premium.
        permanent(dw, best, club, day, fee === null ? null : roundToQuotedStep(Math.min(200e6, fee * 1.15)));
      }
    }
  }
}

// ---------------------------------------------------------------- competitions
