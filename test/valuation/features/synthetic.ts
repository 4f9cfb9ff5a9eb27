/**
 * A small hand-made world for the valuation tests: two leagues of five clubs, players with a latent
 * skill, market values every six months (skill + age curve + club + inflation), one paid transfer
 * each whose fee follows the value, the buyer and the months left on the contract, and optionally
 * a planted group of fast risers (young strikers whose value grows 50% a year).
 */
import type { CareerStepRow, ClubSeasonRow, ContractRow, MarketValueRow, PlayerRow, RatingRow, TransferRow, WorldData } from '../../../src/domain/world.js';
import { ROLES } from '../../../src/domain/roles.js';
import { createRng } from '../../../src/domain/random.js';

export interface SyntheticOptions {
  seed?: number;
  players?: number;
  /** Fast risers (ST born 1994) plus one query player like them born 2001. */
  planted?: number;
  /** Give every player an 'ea' rating row per season from 2015, a known function of skill and age. */
  eaRatings?: boolean;
}

const POSITIONS = ['GK', 'CB', 'LB', 'RB', 'CDM', 'CM', 'CAM', 'LW', 'RW', 'ST'];
const iso = (y: number, m: number, d = 1) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

export const QUERY_PLAYER = 'PQUERY00000000000000000000';
export const PLANTED_PREFIX = 'PPLANT';

export function clubIds(): string[] {
  return Array.from({ length: 10 }, (_, i) => `C${String(i).padStart(26, '0')}`);
}

export function syntheticWorld(opts: SyntheticOptions = {}): WorldData {
  const rng = createRng(opts.seed ?? 1);
  const clubs = clubIds();
  const quality = clubs.map((_, i) => (i < 5 ? 2 - 0.2 * i : 0.8 - 0.15 * (i - 5)));
  const world: WorldData = {
    roles: ROLES.map((r) => ({ id: r.role, name: r.name, description: r.description, positions: [...r.positions] })),
    competitions: [
      { id: 'LEAGUE_ONE', name: 'League One', country: 'X', type: 'DOMESTIC_LEAGUE', tier: 1, registry_a_code: 'L1' },
      { id: 'LEAGUE_TWO', name: 'League Two', country: 'X', type: 'DOMESTIC_LEAGUE', tier: 2, registry_a_code: 'L2' },
    ],
    clubs: clubs.map((id, i) => ({ id, registry_a_id: i + 1, name: `Club ${i}`, country: 'X', is_national_team: false })),
    club_seasons: [],
    players: [],
    contracts: [],
    career_steps: [],
    appearances: [],
    market_values: [],
    transfers: [],
    ratings: [],
    player_attributes: [],
    matches: [],
  };
  for (let s = 2005; s <= 2024; s++) {
    clubs.forEach((c, i) => world.club_seasons.push({ club_id: c, season: s, competition_id: i < 5 ? 'LEAGUE_ONE' : 'LEAGUE_TWO' } satisfies ClubSeasonRow));
  }
  const addPlayer = (id: string, birth: string, position: string, logValueAt: (t: number) => number, clubA: number, clubB: number, moveT: number, contractYears: number, skill: number) => {
    const p: PlayerRow = {
      id, registry_a_id: null, registry_b_id: null, name: `Player ${id.slice(-6)}`, first_name: 'Player', last_name: id.slice(-6), alias: null, nationality: 'X',
      birth_date: birth, height_cm: 170 + Math.round(rng.uniform() * 25), foot: rng.uniform() < 0.7 ? 'Right' : 'Left', position, national_team_id: null, analysis_available: true,
    };
    world.players.push(p);
    const birthT = Number(birth.slice(0, 4)) + 0.5;
    const firstT = Math.max(2006, birthT + 17);
    const moveDate = iso(Math.floor(moveT), Math.floor((moveT % 1) * 12) + 1, 15);
    const start = iso(Math.floor(firstT), 7, 1);
    world.career_steps.push({ player_id: id, club_id: clubs[clubA], start_date: start, end_date: moveT < 2024 ? moveDate : null, is_loan: false, parent_club_id: null } satisfies CareerStepRow);
    if (moveT < 2024) world.career_steps.push({ player_id: id, club_id: clubs[clubB], start_date: moveDate, end_date: null, is_loan: false, parent_club_id: null });
    // The contract with the seller runs `contractYears` past the move; no later contract is recorded.
    const contractEnd = iso(Math.floor(moveT + contractYears), 6, 30);
    world.contracts.push({ player_id: id, club_id: clubs[clubA], signed_date: start, end_date: contractEnd, agency_name: null } satisfies ContractRow);
    let lastBefore = NaN;
    for (let t = Math.ceil(firstT * 2) / 2; t <= 2024; t += 0.5) {
      const date = iso(Math.floor(t), t % 1 === 0 ? 1 : 7, 1);
      const club = t < moveT ? clubA : clubB;
      const lv = logValueAt(t) + 0.4 * quality[club] + 0.03 * (t - 2005);
      if (t < moveT) lastBefore = lv;
      world.market_values.push({ player_id: id, date, value_eur: Math.round(Math.exp(lv)), club_id: clubs[club] } satisfies MarketValueRow);
      if (opts.eaRatings && t % 1 === 0.5 && t >= 2015) {
        const age = t - birthT;
        world.ratings.push({ player_id: id, season: Math.floor(t), rating: Math.round(65 + 6 * skill - 0.05 * (age - 27) ** 2), potential: 0, best_role: ROLES[0].role, position, source: 'ea' } satisfies RatingRow);
      }
    }
    if (moveT < 2024 && Number.isFinite(lastBefore)) {
      const monthsLeft = contractYears * 12;
      const fee = Math.exp(lastBefore + 0.3 * quality[clubB] - 0.3 + Math.log(Math.min(1, 0.3 + monthsLeft / 36)) + 0.15 * rng.normal());
      world.transfers.push({ id: `T${id}`, player_id: id, date: moveDate, from_club_id: clubs[clubA], to_club_id: clubs[clubB], fee_eur: Math.round(fee), market_value_eur: Math.round(Math.exp(lastBefore)), is_loan: false } satisfies TransferRow);
    }
  };

  const n = opts.players ?? 300;
  for (let i = 0; i < n; i++) {
    const id = `P${String(i).padStart(26, '0')}`;
    const birthYear = 1975 + Math.floor(rng.uniform() * 14);
    const birth = iso(birthYear, 1 + Math.floor(rng.uniform() * 12), 1 + Math.floor(rng.uniform() * 28));
    const skill = rng.normal();
    const clubA = Math.min(9, Math.max(0, Math.round(4.5 - 2.5 * skill + rng.normal())));
    const clubB = Math.min(9, Math.max(0, Math.round(4.5 - 2.5 * skill + rng.normal())));
    const moveT = 2009 + rng.uniform() * 14.5;
    const contractYears = 0.1 + rng.uniform() * 3.5;
    const noise = 0.1 * rng.normal();
    addPlayer(id, birth, POSITIONS[i % POSITIONS.length], (t) => 14 + 1.0 * skill - 0.02 * (t - birthYear - 27) ** 2 + noise, clubA, clubB === clubA ? (clubA + 1) % 10 : clubB, moveT, contractYears, skill);
  }
  for (let i = 0; i < (opts.planted ?? 0); i++) {
    const id = `${PLANTED_PREFIX}${String(i).padStart(20, '0')}`;
    const birth = iso(1994, 1 + (i % 6), 1);
    addPlayer(id, birth, 'ST', (t) => 13 + 0.45 * (t - 2011), 9, 8, 2030, 3, 0);
  }
  if ((opts.planted ?? 0) > 0) addPlayer(QUERY_PLAYER, iso(2001, 3, 1), 'ST', (t) => 13 + 0.45 * (t - 2018), 9, 8, 2030, 3, 0);
  return world;
}
