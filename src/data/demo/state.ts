import { seasonOf } from '../../domain/season.js';
import type { ClubSeasonRow, CompetitionRow, ContractRow, MarketValueRow, MatchRow, RatingRow, TransferRow } from '../../domain/world.js';
import { dayOf } from '../../domain/days.js';
import { NATIONALITIES, type Nationality } from './names.js';
import { StreamRng as Rng } from '../../domain/random.js';
import { BURN_IN, type Club, DEMO_SEASONS, type DemoWorldOptions, type Participation, type Player, type SeasonResults } from './model.js';

/** The generator's state: the clubs, players and rows built so far, and its random streams. */
export class DemoState {
  readonly seed: number;
  readonly asOfDay: number;
  readonly current: number;
  readonly first: number;
  readonly start: number;
  readonly rng: Rng;
  readonly matchRng: Rng;
  readonly appRng: Rng;
  readonly clubs: Club[] = [];
  readonly leagueClubs = new Map<string, Club[]>();
  readonly foreign: Club[] = [];
  readonly nations = new Map<string, Club>();
  readonly players: Player[] = [];
  readonly usedNames = new Set<string>();
  readonly natByName = new Map<string, Nationality>(NATIONALITIES.map((n) => [n.name, n]));
  readonly competitions: CompetitionRow[] = [];
  readonly clubSeasons: ClubSeasonRow[] = [];
  readonly contracts: ContractRow[] = [];
  readonly contractKeys = new Map<number, ContractRow>();
  readonly transfers: TransferRow[] = [];
  readonly ratings: RatingRow[] = [];
  readonly values: MarketValueRow[] = [];
  readonly matches: MatchRow[] = [];
  readonly participations: Participation[] = [];
  prev: SeasonResults | null = null;
  season = 0;
  leagueClubCache: Club[] | null = null;
  playerByIdCache: Map<string, Player> | null = null;

  constructor(opts: DemoWorldOptions) {
    this.seed = opts.seed;
    this.asOfDay = dayOf(opts.asOf);
    if (!Number.isFinite(this.asOfDay)) throw new Error(`Invalid asOf date: ${opts.asOf}`);
    this.current = seasonOf(opts.asOf);
    this.first = this.current - DEMO_SEASONS + 1;
    this.start = this.first - BURN_IN;
    this.rng = Rng.stream(opts.seed, 'world');
    this.matchRng = Rng.stream(opts.seed, 'matches');
    this.appRng = Rng.stream(opts.seed, 'appearances');
  }
}

// ---------------------------------------------------------------- setup
