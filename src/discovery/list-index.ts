/**
 * The scouting list: every player at a club at the as-of date, in columns, with each sort's order worked out
 * once, so a request is one pass over one precomputed order (filters tested, matches counted,
 * the page taken) and never a sort. The expected fee is predicted here once per snapshot and model
 * version, as /expected_transfer_value answers it with no target club and no contract date.
 */
import { LRUCache } from 'lru-cache';
import { playerFacts } from '../domain/player-facts.js';
import { POSITIONS } from '../domain/positions.js';
import type { Snapshot } from '../domain/snapshot.js';
import { fromEur, moneyPair, roundMoney } from '../money/convert.js';
import type { Money } from '../money/convert.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { predictFeePoint } from '../valuation/fee/index.js';
import { foldText } from './fold.js';
import { denseRanks, orderByKey } from './order.js';
import { latestValue } from './latest-value.js';
import type { Scope } from './scope.js';

export const SORT_KEYS = ['market_value', 'expected_transfer_value', 'rating', 'potential', 'age', 'name', 'contract_end_date'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const FEET = ['Right', 'Left', 'Both'] as const;
export type Foot = (typeof FEET)[number];

export interface ListSort {
  readonly key: SortKey;
  readonly descending: boolean;
}

/** Every filter of the list; amounts are in the request's currency. */
export interface ListFilter {
  readonly competitionId?: string;
  readonly clubId?: string;
  readonly positions?: readonly string[];
  readonly minAge?: number;
  readonly maxAge?: number;
  readonly nationality?: string;
  readonly preferredFoot?: Foot;
  readonly contractExpiresBefore?: string;
  readonly minMarketValue?: number;
  readonly maxMarketValue?: number;
  readonly maxExpectedTransferValue?: number;
  readonly minRating?: number;
  readonly minPotential?: number;
  readonly analysisAvailableOnly?: boolean;
}

export interface ListQuery {
  readonly filter: ListFilter;
  readonly sort: ListSort;
  readonly limit: number;
  /** The last player of the previous page, or null for the first page. */
  readonly after: string | null;
  readonly scope: Scope;
  /** Names the scope's coverage, so the players it sees are worked out once per plan. */
  readonly scopeKey: string;
  readonly money: Money;
}

export interface ListItem {
  service_id: string;
  name: string;
  age: number | null;
  position: string;
  player_role: string;
  nationality: string;
  club_id: string | null;
  club_name: string | null;
  competition: string | null;
  contract_end_date: string | null;
  market_value: number | null;
  market_value_in_eur: number | null;
  expected_transfer_value: number | null;
  expected_transfer_value_in_eur: number | null;
  rating: number | null;
  potential: number | null;
  analysis_available: boolean;
}

export interface ListPage {
  readonly total: number;
  readonly items: ListItem[];
  /** The last player of this page when more matches follow, else null. */
  readonly lastOfPage: string | null;
}

/** The `after` player is not in this snapshot. */
export class UnknownCursorPlayer extends Error {}

const NONE = -1;
const POSITION_CODE = new Map(POSITIONS.map((p, i) => [p.id as string, i]));

interface Columns {
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly valueEur: Float64Array;
  readonly feeEur: Float64Array;
  readonly rating: Int16Array;
  readonly potential: Int16Array;
  readonly age: Int16Array;
  readonly contractEnd: readonly (string | null)[];
  readonly position: Uint8Array;
  readonly nationality: readonly string[];
  readonly foot: Uint8Array;
  /** Current team and owning club, as indexes into `clubIds`. */
  readonly team: Int32Array;
  readonly owner: Int32Array;
  readonly analysis: Uint8Array;
}

export class ListIndex {
  private readonly index = new Map<string, number>();
  private readonly clubIndex = new Map<string, number>();
  private readonly clubIds: string[];
  private readonly orders = new Map<string, { order: Int32Array; place: Int32Array }>();
  private readonly visibleByScope = new LRUCache<string, Uint8Array>({ max: 256 });
  private readonly cols: Columns;

  private constructor(
    private readonly snapshot: Snapshot,
    /** Version of the models the expected fees come from. */
    readonly modelVersion: string | null,
    bundle: ModelBundle | null,
  ) {
    this.clubIds = [...snapshot.clubs.keys()].sort();
    this.clubIds.forEach((id, i) => this.clubIndex.set(id, i));
    // Players one could sign, in service-id order: ties by service_id are ties by index.
    const players = [...snapshot.players.values()]
      .filter((p) => playerFacts(snapshot, p).inWorldNow)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const n = players.length;
    const cols = {
      ids: players.map((p) => p.id),
      names: players.map((p) => p.name),
      valueEur: new Float64Array(n).fill(NaN),
      feeEur: new Float64Array(n).fill(NaN),
      rating: new Int16Array(n).fill(NONE),
      potential: new Int16Array(n).fill(NONE),
      age: new Int16Array(n).fill(NONE),
      contractEnd: [] as (string | null)[],
      position: new Uint8Array(n),
      nationality: players.map((p) => p.nationality.toLowerCase()),
      foot: new Uint8Array(n),
      team: new Int32Array(n).fill(NONE),
      owner: new Int32Array(n).fill(NONE),
      analysis: new Uint8Array(n),
    };
    players.forEach((p, i) => {
      this.index.set(p.id, i);
      const f = playerFacts(snapshot, p);
      const value = latestValue(snapshot, p.id);
      if (value) cols.valueEur[i] = value.value_eur;
      if (bundle && p.analysis_available) cols.feeEur[i] = predictFeePoint(bundle.fee, snapshot, { playerId: p.id });
      if (f.latestRating) {
        cols.rating[i] = Math.round(f.latestRating.rating);
        cols.potential[i] = Math.round(f.latestRating.potential);
      }
      if (f.age !== null) cols.age[i] = f.age;
      cols.contractEnd.push(snapshot.contracts.get(p.id)?.end_date ?? null);
      cols.position[i] = POSITION_CODE.get(f.position) ?? 0;
      cols.foot[i] = p.foot === null ? 0 : FEET.indexOf(p.foot) + 1;
      cols.team[i] = f.currentTeamId === null ? NONE : (this.clubIndex.get(f.currentTeamId) ?? NONE);
      cols.owner[i] = f.owningClubId === null ? NONE : (this.clubIndex.get(f.owningClubId) ?? NONE);
      cols.analysis[i] = p.analysis_available ? 1 : 0;
    });
    this.cols = cols;
    const sortNames = players.map((p) => `${foldText(p.name)}\u0000${p.name}`);
    for (const key of SORT_KEYS) {
      const [ascending, descending] = this.buildOrders(key, sortNames);
      this.orders.set(`${key}|false`, ascending);
      this.orders.set(`${key}|true`, descending);
    }
  }

  static build(snapshot: Snapshot, bundle: ModelBundle | null): ListIndex {
    return new ListIndex(snapshot, bundle?.version ?? null, bundle);
  }

  get size(): number {
    return this.cols.ids.length;
  }

  /** A listed player's expected fee in EUR (as the list shows it), or null without analysis data or off the list. */
  feeEurOf(playerId: string): number | null {
    const i = this.index.get(playerId);
    return i === undefined || Number.isNaN(this.cols.feeEur[i]) ? null : this.cols.feeEur[i];
  }

  /** Both directions of one sort: nulls last, ties by service_id ascending (the row order). */
  private buildOrders(key: SortKey, sortNames: readonly string[]): Array<{ order: Int32Array; place: Int32Array }> {
    const c = this.cols;
    let value: (i: number) => number | string | null;
    switch (key) {
      case 'market_value': value = (i) => (Number.isNaN(c.valueEur[i]) ? null : c.valueEur[i]); break;
      case 'expected_transfer_value': value = (i) => (Number.isNaN(c.feeEur[i]) ? null : c.feeEur[i]); break;
      case 'rating': value = (i) => (c.rating[i] === NONE ? null : c.rating[i]); break;
      case 'potential': value = (i) => (c.potential[i] === NONE ? null : c.potential[i]); break;
      case 'age': value = (i) => (c.age[i] === NONE ? null : c.age[i]); break;
      case 'name': value = (i) => sortNames[i]; break;
      case 'contract_end_date': value = (i) => c.contractEnd[i]; break;
    }
    const { ranks, distinct } = denseRanks(Array.from({ length: c.ids.length }, (_, i) => value(i)));
    const nulls = Int32Array.from(orderByKey(ranks.map((r) => (r === NONE ? 0 : -1))));
    const descendingKeys = ranks.map((r) => (r === NONE ? -1 : distinct - 1 - r));
    return [orderByKey(ranks), orderByKey(descendingKeys)].map((present) => {
      const order = new Int32Array(c.ids.length);
      order.set(present);
      order.set(nulls, present.length);
      const place = new Int32Array(order.length);
      order.forEach((player, at) => (place[player] = at));
      return { order, place };
    });
  }

  /** Which players a plan sees, worked out once per plan and snapshot. */
  private visible(scope: Scope, key: string): Uint8Array | null {
    if (scope.all) return null;
    let seen = this.visibleByScope.get(key);
    if (!seen) {
      const c = this.cols;
      seen = new Uint8Array(c.ids.length);
      const clubOf = (i: number) => (i === NONE ? null : this.clubIds[i]);
      for (let i = 0; i < seen.length; i++) seen[i] = scope.player(clubOf(c.team[i]), clubOf(c.owner[i])) ? 1 : 0;
      this.visibleByScope.set(key, seen);
    }
    return seen;
  }

  list(q: ListQuery): ListPage {
    const c = this.cols;
    const f = q.filter;
    const { order, place } = this.orders.get(`${q.sort.key}|${q.sort.descending}`)!;
    let start = 0;
    if (q.after !== null) {
      const i = this.index.get(q.after);
      if (i === undefined) throw new UnknownCursorPlayer(q.after);
      start = place[i] + 1;
    }
    const seen = this.visible(q.scope, q.scopeKey);
    // The amount shown for an EUR figure, as moneyPair makes it: amount filters compare what is shown.
    const rate = fromEur(1, q.money.code, q.money.rates);
    const inCurrency = (eur: number) => roundMoney(eur * rate);

    let clubs: Uint8Array | null = null;
    if (f.competitionId !== undefined || f.clubId !== undefined) {
      clubs = new Uint8Array(this.clubIds.length);
      const members = f.competitionId !== undefined ? (this.snapshot.clubsOfCompetition.get(f.competitionId) ?? []) : this.clubIds;
      for (const id of members) {
        if (f.clubId !== undefined && id !== f.clubId) continue;
        const k = this.clubIndex.get(id);
        if (k !== undefined) clubs[k] = 1;
      }
    }
    let positions: Uint8Array | null = null;
    if (f.positions !== undefined) {
      positions = new Uint8Array(POSITIONS.length);
      for (const p of f.positions) positions[POSITION_CODE.get(p)!] = 1;
    }
    const nationality = f.nationality?.toLowerCase();
    const foot = f.preferredFoot === undefined ? 0 : FEET.indexOf(f.preferredFoot) + 1;

    const pass = (i: number): boolean => {
      if (seen !== null && seen[i] === 0) return false;
      if (clubs !== null && (c.team[i] === NONE || clubs[c.team[i]] === 0)) return false;
      if (positions !== null && positions[c.position[i]] === 0) return false;
      if (f.minAge !== undefined && (c.age[i] === NONE || c.age[i] < f.minAge)) return false;
      if (f.maxAge !== undefined && (c.age[i] === NONE || c.age[i] > f.maxAge)) return false;
      if (nationality !== undefined && c.nationality[i] !== nationality) return false;
      if (foot !== 0 && c.foot[i] !== foot) return false;
      if (f.contractExpiresBefore !== undefined && (c.contractEnd[i] === null || c.contractEnd[i]! > f.contractExpiresBefore)) return false;
      if (f.minMarketValue !== undefined && (Number.isNaN(c.valueEur[i]) || inCurrency(c.valueEur[i]) < f.minMarketValue)) return false;
      if (f.maxMarketValue !== undefined && (Number.isNaN(c.valueEur[i]) || inCurrency(c.valueEur[i]) > f.maxMarketValue)) return false;
      if (f.maxExpectedTransferValue !== undefined && (Number.isNaN(c.feeEur[i]) || inCurrency(c.feeEur[i]) > f.maxExpectedTransferValue)) return false;
      if (f.minRating !== undefined && (c.rating[i] === NONE || c.rating[i] < f.minRating)) return false;
      if (f.minPotential !== undefined && (c.potential[i] === NONE || c.potential[i] < f.minPotential)) return false;
      if (f.analysisAvailableOnly === true && c.analysis[i] === 0) return false;
      return true;
    };

    let total = 0;
    const page: number[] = [];
    let more = false;
    for (let at = 0; at < order.length; at++) {
      const i = order[at];
      if (!pass(i)) continue;
      total++;
      if (at < start) continue;
      if (page.length < q.limit) page.push(i);
      else more = true;
    }
    return {
      total,
      items: page.map((i) => this.item(i, q.money)),
      lastOfPage: more ? c.ids[page[page.length - 1]] : null,
    };
  }

  private item(i: number, money: Money): ListItem {
    const c = this.cols;
    const s = this.snapshot;
    const f = playerFacts(s, s.players.get(c.ids[i])!);
    const club = c.team[i] === NONE ? undefined : s.clubs.get(this.clubIds[c.team[i]]);
    const value = Number.isNaN(c.valueEur[i]) ? null : moneyPair(c.valueEur[i], money.code, money.rates);
    const fee = Number.isNaN(c.feeEur[i]) ? null : moneyPair(c.feeEur[i], money.code, money.rates);
    return {
      service_id: c.ids[i],
      name: c.names[i],
      age: f.age,
      position: f.position,
      player_role: f.role,
      nationality: f.player.nationality,
      club_id: club?.id ?? null,
      club_name: club?.name ?? null,
      competition: club ? (s.leagueOfClub.get(club.id) ?? null) : null,
      contract_end_date: c.contractEnd[i],
      market_value: value?.amount ?? null,
      market_value_in_eur: value?.amountEur ?? null,
      expected_transfer_value: fee?.amount ?? null,
      expected_transfer_value_in_eur: fee?.amountEur ?? null,
      rating: c.rating[i] === NONE ? null : c.rating[i],
      potential: c.potential[i] === NONE ? null : c.potential[i],
      analysis_available: c.analysis[i] === 1,
    };
  }
}
