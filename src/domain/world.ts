/**
 * The world's plain shapes: one row type per table of the world, as a source (demo generator,
 * importer) produces them, the store keeps them and the models read them. Dates are ISO
 * `YYYY-MM-DD` strings, seasons are start years (2025 = 2025/2026), money is EUR.
 */
export type CompetitionType =
  | 'DOMESTIC_LEAGUE'
  | 'DOMESTIC_CUP'
  | 'INTERNATIONAL_CUP'
  | 'INTERNATIONAL_SUPERCUP'
  | 'NATIONAL_TEAM'
  // Kept in the data but never shown by playing_time (SPEC rule 2).
  | 'DOMESTIC_SUPERCUP'
  | 'YOUTH'
  | 'FRIENDLY'
  | 'RESERVE'
  | 'OTHER';

export interface CompetitionRow {
  id: string;
  name: string;
  country: string | null;
  type: CompetitionType;
  /** 1 = top flight, 2 = second tier; null for cups and international competitions. */
  tier: number | null;
  registry_a_code: string | null;
}

export interface ClubRow {
  id: string;
  registry_a_id: number | null;
  name: string;
  country: string | null;
  is_national_team: boolean;
}

/** Which domestic league a club played in a season. */
export interface ClubSeasonRow {
  club_id: string;
  season: number;
  competition_id: string;
}

export interface PlayerRow {
  id: string;
  registry_a_id: number | null;
  registry_b_id: number | null;
  name: string;
  first_name: string;
  last_name: string;
  alias: string | null;
  nationality: string;
  birth_date: string | null;
  height_cm: number | null;
  foot: 'Right' | 'Left' | 'Both' | null;
  /** Main position, a code of the 17-entry catalogue; ratings per season may refine it. */
  position: string | null;
  /** Club id of the senior national team he has played for, if any. */
  national_team_id: string | null;
  analysis_available: boolean;
}

export interface ContractRow {
  player_id: string;
  club_id: string;
  signed_date: string;
  end_date: string | null;
  agency_name: string | null;
}

export interface CareerStepRow {
  player_id: string;
  club_id: string;
  start_date: string;
  end_date: string | null;
  is_loan: boolean;
  /** For a loan: the club that owns the registration. */
  parent_club_id: string | null;
}

export interface AppearanceRow {
  player_id: string;
  season: number;
  competition_id: string;
  club_id: string;
  appearances: number;
  starts: number;
  minutes: number;
}

export interface MarketValueRow {
  player_id: string;
  date: string;
  value_eur: number;
  club_id: string | null;
}

export interface TransferRow {
  id: string;
  player_id: string;
  date: string;
  from_club_id: string | null;
  to_club_id: string | null;
  /** null = unknown; 0 = free or loan; kept distinct. */
  fee_eur: number | null;
  market_value_eur: number | null;
  is_loan: boolean;
}

export interface RatingRow {
  player_id: string;
  season: number;
  rating: number;
  potential: number;
  best_role: string;
  position: string;
  /** 'model' for our own ratings, 'ea' for an external calibration input. */
  source: string;
  /**
   * Our ratings only: `ea` when the rating is the published rating as released (nothing new known
   * since), `estimated` when our model made or moved it. Absent or null on external rows.
   */
  basis?: RatingBasis | null;
}

export type RatingBasis = 'ea' | 'estimated';

/**
 * A player's attribute profile from an external rating source (EA FC), one row per edition:
 * `attributes` is a JSON object of attribute name -> 1-99 (see PLAYER_ATTRIBUTES), only those
 * the source gives. A goalkeeper's six face stats are his keeper ones (diving, handling...).
 */
export interface PlayerAttributesRow {
  player_id: string;
  season: number;
  source: string;
  attributes: string;
}

/** Attribute names a profile may carry, as stored. */
export const PLAYER_ATTRIBUTES = [
  'pace', 'shooting', 'passing', 'dribbling', 'defending', 'physicality',
  'acceleration', 'sprint_speed', 'positioning', 'finishing', 'shot_power', 'long_shots', 'volleys', 'penalties',
  'vision', 'crossing', 'free_kick', 'curve', 'agility', 'balance', 'reactions', 'ball_control', 'composure',
  'interceptions', 'heading', 'defensive_awareness', 'standing_tackle', 'sliding_tackle', 'jumping', 'stamina',
  'strength', 'aggression', 'attacking_work_rate', 'defensive_work_rate', 'weak_foot', 'skill_moves',
] as const;
export type PlayerAttribute = (typeof PLAYER_ATTRIBUTES)[number];

export interface MatchRow {
  id: string;
  competition_id: string;
  season: number;
  date: string;
  home_club_id: string;
  away_club_id: string;
  home_goals: number;
  away_goals: number;
}

export interface RoleRow {
  id: string;
  name: string;
  description: string;
  positions: string[];
}

/** The world's tables: what a source (demo generator, importer) produces and the store replaces whole. */
export interface WorldTables {
  competitions: CompetitionRow;
  clubs: ClubRow;
  club_seasons: ClubSeasonRow;
  players: PlayerRow;
  contracts: ContractRow;
  career_steps: CareerStepRow;
  appearances: AppearanceRow;
  market_values: MarketValueRow;
  transfers: TransferRow;
  ratings: RatingRow;
  player_attributes: PlayerAttributesRow;
  matches: MatchRow;
  roles: RoleRow;
}

/** A whole world as plain rows, in dependency order. */
export type WorldData = { [T in keyof WorldTables]: WorldTables[T][] };

export const WORLD_TABLE_ORDER: readonly (keyof WorldTables)[] = [
  'roles',
  'competitions',
  'clubs',
  'club_seasons',
  'players',
  'contracts',
  'career_steps',
  'appearances',
  'market_values',
  'transfers',
  'ratings',
  'player_attributes',
  'matches',
];
