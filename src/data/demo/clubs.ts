/** Competitions, clubs (league, foreign, national teams) and which league each plays in. */
import { stableId } from '../../domain/ids.js';
import { CHALLENGE_CUP, CHAMPIONS_CUP, COUNTRY_CUPS, LEAGUES, NATIONAL_MATCHES, SUPER_CUP, leagueCompetition, type LeagueDef } from './leagues.js';
import { CLUB_NAMING, FOREIGN_CLUBS, NATIONALITIES } from './names.js';
import type { Club } from './model.js';
import { DemoState } from './state.js';

export function buildCompetitions(dw: DemoState): void {
  for (const l of LEAGUES) dw.competitions.push(leagueCompetition(l));
  for (const c of COUNTRY_CUPS) dw.competitions.push(c.cup, c.supercup);
  dw.competitions.push(CHAMPIONS_CUP, CHALLENGE_CUP, SUPER_CUP, NATIONAL_MATCHES);
}

function newClub(dw: DemoState, name: string, country: string, kind: Club['kind'], q: number, league: LeagueDef | null, feeder = false): Club {
  const idx = dw.clubs.length;
  const club: Club = {
    idx,
    row: {
      id: stableId('C', `demo:${dw.seed}:club:${idx}`),
      registry_a_id: 1000 + idx * 7 + dw.rng.int(0, 6),
      name,
      country,
      is_national_team: kind === 'national',
    },
    kind,
    q,
    league,
    feeder,
    team: new Set(),
    groups: { GK: 0, DEF: 0, MID: 0, FWD: 0 },
    loansOut: 0,
    strength: q,
  };
  dw.clubs.push(club);
  return club;
}

export function buildClubs(dw: DemoState): void {
  const usedClubNames = new Set<string>();
  const townsLeft = new Map<string, string[]>();
  for (const [country, naming] of Object.entries(CLUB_NAMING)) townsLeft.set(country, dw.rng.shuffle([...naming.towns]));
  for (const l of LEAGUES) {
    const naming = CLUB_NAMING[l.country];
    const towns = townsLeft.get(l.country) ?? [];
    const list: Club[] = [];
    for (let i = 0; i < l.size; i++) {
      let name = '';
      do {
        const town = towns.pop() ?? `Nova ${i}`;
        name = dw.rng.pick(naming.patterns).replace('{T}', town);
      } while (usedClubNames.has(name));
      usedClubNames.add(name);
      // Clubs are spread from the top of the table down, with a couple of giants in each top flight.
      const rank = 1 - (i + 0.5) / l.size;
      const giant = l.tier === 1 && i < 2 ? 1.5 : 0;
      const q = l.base + l.spread * (rank - 0.5) + giant + dw.rng.normal(0, 0.8);
      list.push(newClub(dw, name, l.country, 'league', q, l));
    }
    dw.leagueClubs.set(l.id, list);
  }
  // Lower-division clubs at home: where many signings come from and where veterans drop down.
  for (const country of new Set(LEAGUES.map((l) => l.country))) {
    const naming = CLUB_NAMING[country];
    const towns = townsLeft.get(country) ?? [];
    for (let i = 0; i < 2; i++) {
      let name = '';
      do {
        name = dw.rng.pick(naming.patterns).replace('{T}', towns.pop() ?? `Vale ${i}`);
      } while (usedClubNames.has(name));
      usedClubNames.add(name);
      dw.foreign.push(newClub(dw, name, country, 'foreign', 63 + dw.rng.normal(0, 1), null, true));
    }
  }
  for (const f of FOREIGN_CLUBS) dw.foreign.push(newClub(dw, f.name, f.country, 'foreign', f.level, null, f.feeder));
  for (const n of NATIONALITIES) dw.nations.set(n.name, newClub(dw, n.name, n.name, 'national', 0, null));
}

/** Every club in a simulated league this season, in league order (reset when clubs change league). */
export function allLeagueClubs(dw: DemoState): Club[] {
  if (!dw.leagueClubCache) {
    const out: Club[] = [];
    for (const l of LEAGUES) out.push(...(dw.leagueClubs.get(l.id) ?? []));
    dw.leagueClubCache = out;
  }
  return dw.leagueClubCache;
}

// ---------------------------------------------------------------- players
