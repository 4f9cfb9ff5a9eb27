/** The rows it emits: market values, career steps, national teams and appearances (playing time). */
import type { AppearanceRow, CareerStepRow } from '../../domain/world.js';
import { isoOfDay } from '../../domain/days.js';
import { NATIONAL_MATCHES } from './leagues.js';
import { NATIONALITIES } from './names.js';
import { clamp, type Club, GROUPS, type Participation, type Player, seasonOfDay, type SeasonRating, XI_SLOTS } from './model.js';
import { DemoState } from './state.js';
import { valueAt } from './money.js';
import { inWorld, shownAbroad } from './moves.js';
import { seasonDay } from './results.js';

export function emitValues(dw: DemoState, day: number): void {
  if (day > dw.asOfDay || seasonOfDay(day) < dw.first) return;
  const date = isoOfDay(day);
  for (const p of dw.players) {
    if (!p.team || !(inWorld(dw, p) || shownAbroad(dw, p))) continue;
    dw.values.push({ player_id: p.row.id, date, value_eur: valueAt(dw, p, day, p.team), club_id: p.team.row.id });
  }
}

export function careerSteps(dw: DemoState, players: Player[]): CareerStepRow[] {
  const out: CareerStepRow[] = [];
  for (const p of players) {
    for (const sp of p.spells) {
      out.push({
        player_id: p.row.id,
        club_id: sp.club.row.id,
        start_date: isoOfDay(sp.start),
        end_date: sp.end === null ? null : isoOfDay(sp.end),
        is_loan: sp.loan,
        parent_club_id: sp.parent?.row.id ?? null,
      });
    }
  }
  return out;
}

export function nationalTeams(dw: DemoState): void {
  const fixtures: [number, number][] = [[9, 5], [9, 9], [10, 10], [10, 14], [11, 14], [11, 18], [3, 21], [3, 25], [6, 6], [6, 10]];
  for (let s = dw.first; s <= dw.current; s++) {
    const byNation = new Map<string, Player[]>();
    for (const p of dw.players) {
      if (!p.ratings.has(s)) continue;
      const list = byNation.get(p.row.nationality) ?? [];
      list.push(p);
      byNation.set(p.row.nationality, list);
    }
    const dates = fixtures.map(([m, d]) => seasonDay(dw, s, m, d));
    for (const n of NATIONALITIES) {
      const nation = dw.nations.get(n.name) as Club;
      const rated = (byNation.get(n.name) ?? []).map((p) => ({ p, r: p.ratings.get(s) as SeasonRating }));
      const squad = rated
        .filter((x) => x.r.rating >= 64)
        .sort((a, b) => b.r.rating + b.r.form - (a.r.rating + a.r.form) || a.p.idx - b.p.idx)
        .slice(0, 26)
        .map((x) => x.p);
      if (squad.length === 0) continue;
      const played = dates.filter((d) => d <= dw.asOfDay);
      if (played.length > 0) dw.participations.push({ season: s, comp: NATIONAL_MATCHES, club: nation, dates: played, members: squad });
    }
  }
}

export function appearances(dw: DemoState): AppearanceRow[] {
  // Spells at league clubs, by season and club.
  const spells = new Map<number, { p: Player; start: number; end: number }[]>();
  for (const p of dw.players) {
    for (const sp of p.spells) {
      if (sp.club.kind !== 'league') continue;
      const end = sp.end ?? dw.asOfDay;
      for (let s = Math.max(dw.first, seasonOfDay(sp.start)); s <= Math.min(dw.current, seasonOfDay(end)); s++) {
        const key = s * 10_000 + sp.club.idx;
        const list = spells.get(key) ?? [];
        list.push({ p, start: sp.start, end });
        spells.set(key, list);
      }
    }
  }
  const rows: AppearanceRow[] = [];
  for (const part of dw.participations) {
    const games = new Map<Player, number>();
    if (part.members) {
      for (const p of part.members) games.set(p, part.dates.length);
    } else {
      for (const sp of spells.get(part.season * 10_000 + part.club.idx) ?? []) {
        let n = 0;
        for (const d of part.dates) if (d >= sp.start && d <= sp.end) n++;
        if (n > 0 && sp.p.ratings.has(part.season)) games.set(sp.p, (games.get(sp.p) ?? 0) + n);
      }
    }
    allocate(dw, part, games, rows);
  }
  for (const r of rows) {
    if (r.competition_id === NATIONAL_MATCHES.id) {
      const p = playerById(dw).get(r.player_id) as Player;
      p.row.national_team_id = r.club_id;
    }
  }
  return rows;
}

function playerById(dw: DemoState): Map<string, Player> {
  if (!dw.playerByIdCache) dw.playerByIdCache = new Map(dw.players.map((p) => [p.row.id, p]));
  return dw.playerByIdCache;
}

/** Shares a club's games in one competition among the players there, by rank in their position group. */
function allocate(dw: DemoState, part: Participation, games: Map<Player, number>, rows: AppearanceRow[]): void {
  const total = part.dates.length;
  const rotation = part.comp.type === 'DOMESTIC_CUP' || part.comp.type === 'DOMESTIC_SUPERCUP';
  const starts = new Map<Player, number>();
  const subWeight = new Map<Player, number>();
  for (const g of GROUPS) {
    const members = [...games.keys()]
      .filter((p) => p.group === g)
      .map((p) => ({ p, r: p.ratings.get(part.season) as SeasonRating }))
      .sort((a, b) => b.r.rating + b.r.form - (a.r.rating + a.r.form) || a.p.idx - b.p.idx);
    const k = XI_SLOTS[g];
    const expected = members.map(({ p, r }, rank) => {
      let prop: number;
      if (g === 'GK') prop = rotation ? [0.35, 0.6, 0.05][rank] ?? 0 : [0.93, 0.06, 0.01][rank] ?? 0;
      else prop = rank < k ? 0.9 : rank < k + 1 ? 0.55 : rank < k + 3 ? 0.3 : 0.1;
      if (rotation && g !== 'GK') prop = 0.6 * prop + 0.2;
      return (games.get(p) as number) * prop * r.avail;
    });
    const sum = expected.reduce((a, b) => a + b, 0);
    const scale = sum > 0 ? Math.min(1.6, (k * total) / sum) : 0;
    members.forEach(({ p, r }, i) => {
      const n = games.get(p) as number;
      const st = clamp(Math.round(Math.min(n * 0.98, expected[i] * scale) + dw.appRng.normal(0, 0.8)), 0, n);
      starts.set(p, st);
      subWeight.set(p, g === 'GK' ? 0.01 : (n - st) * (i < k ? 0.15 : 0.5) * r.avail);
    });
  }
  const subsPerGame = part.comp.type === 'DOMESTIC_LEAGUE' ? 3.6 : 3;
  const subTotal = total * subsPerGame;
  let wSum = 0;
  for (const w of subWeight.values()) wSum += w;
  for (const [p, n] of games) {
    const st = starts.get(p) ?? 0;
    const w = subWeight.get(p) ?? 0;
    const subs = wSum > 0 ? clamp(Math.round((subTotal * w) / wSum + dw.appRng.normal(0, 0.7)), 0, n - st) : 0;
    const apps = st + subs;
    if (apps === 0) continue;
    const perStart = p.group === 'GK' ? 90 : p.group === 'DEF' ? dw.appRng.uniform(84, 90) : p.group === 'MID' ? dw.appRng.uniform(76, 88) : dw.appRng.uniform(70, 84);
    const perSub = dw.appRng.uniform(8, 30);
    const minutes = Math.min(90 * apps, Math.round(st * perStart + subs * perSub));
    rows.push({ player_id: p.row.id, season: part.season, competition_id: part.comp.id, club_id: part.club.row.id, appearances: apps, starts: st, minutes });
  }
}
