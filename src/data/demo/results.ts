/** Results: each season's league games, cups and continental cups, promotion and relegation. */
import type { CompetitionRow } from '../../domain/world.js';
import { isoOfDay, ymd } from '../../domain/days.js';
import { saturdayOnOrAfter } from './dates.js';
import { CHALLENGE_CUP, CHAMPIONS_CUP, COUNTRY_CUPS, LEAGUES, PROMOTION_PLACES, SUPER_CUP, type LeagueDef } from './leagues.js';
import type { Club, SeasonResults } from './model.js';
import { DemoState } from './state.js';
import { allLeagueClubs } from './clubs.js';
import { bestXi } from './squads.js';

export function seasonDay(dw: DemoState, s: number, month: number, day: number): number {
  return ymd(month >= 7 ? s : s + 1, month, day);
}

function winProb(dw: DemoState, a: Club, b: Club): number {
  return 1 / (1 + Math.exp(-0.13 * (a.strength - b.strength)));
}

function goals(dw: DemoState, home: Club, away: Club, neutral = false): [number, number] {
  const d = home.strength - away.strength;
  const mu = Math.log(1.3);
  const h = neutral ? 0 : 0.13;
  return [dw.matchRng.poisson(Math.exp(mu + h + 0.045 * d)), dw.matchRng.poisson(Math.exp(mu - 0.045 * d))];
}

function participate(dw: DemoState, s: number, comp: CompetitionRow, club: Club, dates: number[]): void {
  if (s < dw.first) return;
  const played = dates.filter((d) => d <= dw.asOfDay).sort((a, b) => a - b);
  if (played.length > 0) dw.participations.push({ season: s, comp, club, dates: played });
}

export function playSeason(dw: DemoState, s: number): void {
  const clubs = allLeagueClubs(dw);
  for (const c of clubs) c.strength = bestXi(dw, c) + dw.matchRng.normal(0, 1);
  const prev = dw.prev;
  const byStrength = (list: Club[]): Club[] => [...list].sort((a, b) => b.strength - a.strength || a.idx - b.idx);
  const tableOf = (l: LeagueDef): Club[] => prev?.tables.get(l.id) ?? byStrength(dw.leagueClubs.get(l.id) ?? []);

  // Super cups open the season.
  for (const cc of COUNTRY_CUPS) {
    const top = LEAGUES.find((l) => l.country === cc.country && l.tier === 1) as LeagueDef;
    const table = tableOf(top).filter((c) => c.kind === 'league');
    const champion = table[0];
    let other = prev?.cupWinners.get(cc.country) ?? table[1];
    if (other === champion) other = table[1];
    for (const c of [champion, other]) participate(dw, s, cc.supercup, c, [seasonDay(dw, s, 8, 4)]);
  }
  const all = byStrength(clubs);
  const superA = prev?.championsWinner ?? all[0];
  let superB = prev?.challengeWinner ?? all.find((c) => c.league !== superA.league && all.indexOf(c) >= 5) ?? all[5];
  if (superB === superA) superB = all.find((c) => c !== superA) as Club;
  for (const c of [superA, superB]) participate(dw, s, SUPER_CUP, c, [seasonDay(dw, s, 8, 13)]);

  const tables = new Map<string, Club[]>();
  for (const l of LEAGUES) tables.set(l.id, playLeague(dw, s, l));

  const cupWinners = new Map<string, Club>();
  for (const cc of COUNTRY_CUPS) {
    const entrants = clubs.filter((c) => c.row.country === cc.country);
    cupWinners.set(cc.country, domesticCup(dw, s, cc.cup, entrants));
  }

  const champions: Club[] = [];
  const challenge: Club[] = [];
  for (const l of LEAGUES) {
    if (l.tier !== 1) continue;
    const table = tableOf(l).filter((c) => c.league?.tier === 1 || prev === null);
    champions.push(...table.slice(0, l.championsPlaces));
    challenge.push(...table.slice(l.championsPlaces, l.championsPlaces + l.challengePlaces));
  }
  const d = (m: number, day: number): number => seasonDay(dw, s, m, day);
  const championsWinner = groupCup(dw, s, CHAMPIONS_CUP, champions, 4,
    [d(9, 17), d(10, 1), d(10, 22), d(11, 5), d(11, 26), d(12, 10)], [[d(3, 4), d(3, 11)], [d(4, 22), d(4, 29)]], d(5, 30));
  const challengeWinner = groupCup(dw, s, CHALLENGE_CUP, challenge, 2,
    [d(9, 18), d(10, 2), d(10, 23), d(11, 6), d(11, 27), d(12, 11), d(2, 19), d(2, 26)], [[d(4, 16), d(4, 23)]], d(5, 21));
  dw.prev = { tables, cupWinners, championsWinner, challengeWinner };
}

function playLeague(dw: DemoState, s: number, l: LeagueDef): Club[] {
  const clubs = dw.leagueClubs.get(l.id) ?? [];
  const shown = s >= dw.first;
  if (shown) for (const c of clubs) dw.clubSeasons.push({ club_id: c.row.id, season: s, competition_id: l.id });
  const n = clubs.length;
  const order = dw.matchRng.shuffle([...clubs]);
  const rounds = 2 * (n - 1);
  const firstSat = saturdayOnOrAfter(ymd(s, l.opening[0], l.opening[1]));
  const lastSat = saturdayOnOrAfter(ymd(s + 1, l.closing[0], l.closing[1]) - 6);
  const weeks = Math.floor((lastSat - firstSat) / 7) + 1;
  const comp = dw.competitions.find((c) => c.id === l.id) as CompetitionRow;
  const dates = new Map<Club, number[]>(clubs.map((c) => [c, []]));
  const pts = new Map<Club, [number, number, number]>(clubs.map((c) => [c, [0, 0, 0]]));
  const ring = order.slice(1);
  for (let r = 0; r < n - 1; r++) {
    const pairs: [Club, Club][] = [];
    const line = [order[0], ...ring];
    for (let i = 0; i < n / 2; i++) {
      const a = line[i];
      const b = line[n - 1 - i];
      pairs.push(i === 0 ? (r % 2 === 0 ? [a, b] : [b, a]) : i % 2 === 0 ? [a, b] : [b, a]);
    }
    ring.unshift(ring.pop() as Club);
    for (const leg of [0, 1]) {
      const round = leg * (n - 1) + r;
      const sat = firstSat + 7 * Math.round((round * (weeks - 1)) / (rounds - 1));
      pairs.forEach(([x, y], k) => {
        const [home, away] = leg === 0 ? [x, y] : [y, x];
        const day = sat + dw.matchRng.weighted([-1, 0, 1, 2], [0.1, 0.5, 0.3, 0.1]);
        const [hg, ag] = goals(dw, home, away);
        const ph = pts.get(home) as [number, number, number];
        const pa = pts.get(away) as [number, number, number];
        ph[1] += hg - ag; pa[1] += ag - hg; ph[2] += hg; pa[2] += ag;
        if (hg > ag) ph[0] += 3;
        else if (hg < ag) pa[0] += 3;
        else { ph[0]++; pa[0]++; }
        if (day > dw.asOfDay || !shown) return;
        (dates.get(home) as number[]).push(day);
        (dates.get(away) as number[]).push(day);
        dw.matches.push({
          id: `M${dw.seed}-${l.code}-${s}-${String(round + 1).padStart(2, '0')}-${k + 1}`,
          competition_id: l.id, season: s, date: isoOfDay(day), home_club_id: home.row.id, away_club_id: away.row.id, home_goals: hg, away_goals: ag,
        });
      });
    }
  }
  for (const c of clubs) participate(dw, s, comp, c, dates.get(c) as number[]);
  return [...clubs].sort((a, b) => {
    const x = pts.get(a) as [number, number, number];
    const y = pts.get(b) as [number, number, number];
    return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || b.strength - a.strength || a.idx - b.idx;
  });
}

/** Single-match knock-out; the weakest clubs play a preliminary round when the field is not a power of two. */
function domesticCup(dw: DemoState, s: number, comp: CompetitionRow, entrants: Club[]): Club {
  const played = new Map<Club, number[]>(entrants.map((c) => [c, []]));
  const roundDates = [[9, 24], [10, 29], [12, 3], [1, 14], [2, 11], [3, 4], [4, 22], [5, 16]].map(([m, d]) => seasonDay(dw, s, m, d));
  let size = 1;
  while (size * 2 <= entrants.length) size *= 2;
  const extra = entrants.length - size;
  const totalRounds = Math.log2(size) + (extra > 0 ? 1 : 0);
  let dateIdx = roundDates.length - totalRounds;
  let alive = dw.matchRng.shuffle([...entrants]);
  if (extra > 0) {
    const weakest = [...alive].sort((a, b) => a.strength - b.strength || a.idx - b.idx).slice(0, 2 * extra);
    const winners = knockoutRound(dw, weakest, roundDates[dateIdx++], played);
    alive = dw.matchRng.shuffle([...alive.filter((c) => !weakest.includes(c)), ...winners]);
  }
  while (alive.length > 1) alive = knockoutRound(dw, alive, roundDates[dateIdx++], played);
  for (const c of entrants) participate(dw, s, comp, c, played.get(c) as number[]);
  return alive[0];
}

function knockoutRound(dw: DemoState, clubs: Club[], day: number, played: Map<Club, number[]>): Club[] {
  const winners: Club[] = [];
  for (let i = 0; i + 1 < clubs.length; i += 2) {
    const [a, b] = [clubs[i], clubs[i + 1]];
    (played.get(a) as number[]).push(day);
    (played.get(b) as number[]).push(day);
    winners.push(dw.matchRng.chance(winProb(dw, a, b) + 0.03) ? a : b);
  }
  return winners;
}

/** Group stage (double round robin, two go through) then two-legged ties and a one-match final. */
function groupCup(dw: DemoState, s: number, comp: CompetitionRow, entrants: Club[], groups: number, groupDates: number[], legs: [number, number][], finalDay: number): Club {
  const played = new Map<Club, number[]>(entrants.map((c) => [c, []]));
  const seeded = [...entrants].sort((a, b) => b.strength - a.strength || a.idx - b.idx);
  const groupsOf: Club[][] = Array.from({ length: groups }, () => []);
  seeded.forEach((c, i) => {
    const pot = Math.floor(i / groups);
    groupsOf[pot % 2 === 0 ? i % groups : groups - 1 - (i % groups)].push(c);
  });
  const winners: Club[] = [];
  const runners: Club[] = [];
  for (const group of groupsOf) {
    const pts = new Map<Club, number>(group.map((c) => [c, 0]));
    const gd = new Map<Club, number>(group.map((c) => [c, 0]));
    for (const home of group) {
      for (const away of group) {
        if (home === away) continue;
        const [hg, ag] = goals(dw, home, away);
        pts.set(home, (pts.get(home) ?? 0) + (hg > ag ? 3 : hg === ag ? 1 : 0));
        pts.set(away, (pts.get(away) ?? 0) + (ag > hg ? 3 : hg === ag ? 1 : 0));
        gd.set(home, (gd.get(home) ?? 0) + hg - ag);
        gd.set(away, (gd.get(away) ?? 0) + ag - hg);
      }
    }
    for (const c of group) (played.get(c) as number[]).push(...groupDates.slice(0, 2 * (group.length - 1)));
    const ranked = [...group].sort((a, b) => (pts.get(b) ?? 0) - (pts.get(a) ?? 0) || (gd.get(b) ?? 0) - (gd.get(a) ?? 0) || b.strength - a.strength);
    winners.push(ranked[0]);
    runners.push(ranked[1]);
  }
  let alive: Club[] = [];
  winners.forEach((w, i) => alive.push(w, runners[(i + 1) % runners.length]));
  for (const [leg1, leg2] of legs) {
    const next: Club[] = [];
    for (let i = 0; i + 1 < alive.length; i += 2) {
      const [a, b] = [alive[i], alive[i + 1]];
      for (const c of [a, b]) (played.get(c) as number[]).push(leg1, leg2);
      const [g1b, g1a] = goals(dw, b, a);
      const [g2a, g2b] = goals(dw, a, b);
      const diff = g1a + g2a - g1b - g2b;
      next.push(diff > 0 ? a : diff < 0 ? b : dw.matchRng.chance(winProb(dw, a, b)) ? a : b);
    }
    alive = next;
  }
  const [fa, fb] = alive;
  for (const c of [fa, fb]) (played.get(c) as number[]).push(finalDay);
  const champion = dw.matchRng.chance(winProb(dw, fa, fb)) ? fa : fb;
  for (const c of entrants) participate(dw, s, comp, c, played.get(c) as number[]);
  return champion;
}

/** Budgets follow results; the bottom of the top flight swaps with the top of the second tier. */
export function endSeason(dw: DemoState): void {
  const prev = dw.prev as SeasonResults;
  for (const l of LEAGUES) {
    const table = prev.tables.get(l.id) ?? [];
    table.forEach((c, i) => {
      const target = l.base + l.spread * (0.5 - i / Math.max(1, table.length - 1));
      c.q += 0.25 * (target - c.q) + dw.rng.normal(0, 0.6);
    });
  }
  for (const top of LEAGUES) {
    const second = LEAGUES.find((l) => l.country === top.country && l.tier === 2);
    if (top.tier !== 1 || !second) continue;
    const down = (prev.tables.get(top.id) ?? []).slice(-PROMOTION_PLACES);
    const up = (prev.tables.get(second.id) ?? []).slice(0, PROMOTION_PLACES);
    const topList = (dw.leagueClubs.get(top.id) ?? []).filter((c) => !down.includes(c));
    const secondList = (dw.leagueClubs.get(second.id) ?? []).filter((c) => !up.includes(c));
    for (const c of up) {
      c.league = top;
      c.q += 1.5;
      topList.push(c);
    }
    for (const c of down) {
      c.league = second;
      c.q -= 1.5;
      secondList.push(c);
    }
    dw.leagueClubCache = null;
    dw.leagueClubs.set(top.id, topList);
    dw.leagueClubs.set(second.id, secondList);
  }
}

// ---------------------------------------------------------------- values, careers, playing time
