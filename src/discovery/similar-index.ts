/**
 * Players like this one: every player at a club at the as-of date as a profile of how he plays and
 * at what level, compared by brute force over typed arrays (20k players x ~40 numbers: a few ms, so
 * no approximate index is needed; see docs/similar-players.md). Built once per snapshot and model
 * version, beside the scouting list whose expected fees it shows.
 *
 * A profile: where he plays (a point on the pitch, so LW is near LM and far from CB), his role,
 * his level (our rating and his crowd value), his age, foot and height, his share of starts, and
 * the EA attribute profile where he has one. Attributes are read as a style: each is taken
 * relative to the player's own mean and then standardised within his position group, so a
 * 70-rated copy of a 90-rated player's style matches it, and level is compared on its own.
 */
import { playerFacts } from '../domain/player-facts.js';
import { POSITION_GROUP, type PositionCode } from '../domain/positions.js';
import type { Snapshot } from '../domain/snapshot.js';
import type { PlayerAttribute } from '../domain/world.js';
import { fromEur, moneyPair, roundMoney, type Money } from '../money/convert.js';
import { latestValue } from './latest-value.js';
import type { ListIndex } from './list-index.js';
import type { Scope } from './scope.js';
import { FACE, sharedTraits, STYLE, type TraitProfile } from './similar-traits.js';

/** Where a position is played: x across (left -1, right 1), y up the pitch (goal 0, striker 4.1). */
const PITCH: Record<PositionCode, readonly [number, number]> = {
  GK: [0, 0], CB: [0, 1], LB: [-1, 1.2], RB: [1, 1.2], LWB: [-1, 1.6], RWB: [1, 1.6],
  CDM: [0, 2], CM: [0, 2.5], LM: [-1, 2.8], RM: [1, 2.8], CAM: [0, 3.2],
  LW: [-1, 3.6], RW: [1, 3.6], LF: [-0.5, 3.9], RF: [0.5, 3.9], CF: [0, 3.9], ST: [0, 4.1],
};
const GROUPS = ['GK', 'DEF', 'MID', 'FWD'] as const;
const FEET = ['Right', 'Left', 'Both'] as const;

/**
 * Weights of the distance's parts (each part is about 1 for a clearly different player): level and
 * position weigh most, so a like-for-like replacement ranks above one who only shares the position.
 */
export const WEIGHTS = {
  pitchAcross: 0.75,
  pitchUp: 2.2,
  group: 3,
  role: 0.5,
  rating: 1.6,
  value: 1.2,
  style: 1.4,
  /** Style distance assumed when one of the two has no attribute profile. */
  styleUnknown: 0.55,
  age: 0.35,
  foot: 0.3,
  height: 0.3,
  starts: 0.3,
} as const;
/** Similarity = exp(-distance / SCALE): 1 for an identical profile. */
const SCALE = 4;


export interface SimilarFilter {
  readonly positions?: readonly string[];
  readonly maxAge?: number;
  /** In the request's currency, compared as shown (rounded), as in /players. */
  readonly maxExpectedTransferValue?: number;
  readonly competitionId?: string;
}

export interface SimilarQuery {
  readonly playerId: string;
  readonly filter: SimilarFilter;
  readonly limit: number;
  readonly scope: Scope;
  readonly money: Money;
}

export interface SimilarItem {
  service_id: string;
  name: string;
  age: number | null;
  club_id: string | null;
  club_name: string | null;
  position: string;
  player_role: string;
  similarity: number;
  market_value_in_eur: number | null;
  expected_transfer_value: number | null;
  expected_transfer_value_in_eur: number | null;
  shared_traits: string[];
}

export class SimilarIndex {
  private readonly ids: string[];
  private readonly index = new Map<string, number>();
  private readonly x: Float32Array;
  private readonly y: Float32Array;
  private readonly group: Uint8Array;
  private readonly position: string[];
  private readonly role: Int16Array;
  private readonly rating: Float32Array;
  private readonly logValue: Float32Array;
  private readonly age: Float32Array;
  private readonly foot: Uint8Array;
  private readonly height: Float32Array;
  private readonly starts: Float32Array;
  /** Style: STYLE.length numbers a player, NaN where unknown; `hasStyle` marks who has one. */
  private readonly style: Float32Array;
  private readonly hasStyle: Uint8Array;
  private readonly feeEur: Float64Array;
  private readonly team: (string | null)[];
  private readonly owner: (string | null)[];
  private readonly profiles: TraitProfile[];
  private readonly listed: Uint8Array;

  private constructor(
    private readonly snapshot: Snapshot,
    readonly modelVersion: string | null,
    list: ListIndex,
  ) {
    // Everyone is profiled (the player asked may have left the leagues followed); only players at a club are listed.
    const players = [...snapshot.players.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const n = players.length;
    const d = STYLE.length;
    this.ids = players.map((p) => p.id);
    this.x = new Float32Array(n);
    this.y = new Float32Array(n);
    this.group = new Uint8Array(n);
    this.position = [];
    this.role = new Int16Array(n);
    this.rating = new Float32Array(n).fill(NaN);
    this.logValue = new Float32Array(n).fill(NaN);
    this.age = new Float32Array(n).fill(NaN);
    this.foot = new Uint8Array(n);
    this.height = new Float32Array(n).fill(NaN);
    this.starts = new Float32Array(n).fill(NaN);
    this.style = new Float32Array(n * d).fill(NaN);
    this.hasStyle = new Uint8Array(n);
    this.feeEur = new Float64Array(n).fill(NaN);
    this.team = [];
    this.owner = [];
    this.profiles = [];
    this.listed = new Uint8Array(n);
    const roleIds = new Map<string, number>();
    const external = new Map<string, number>();
    const externalSeason = new Map<string, number>();
    for (const r of snapshot.externalRatings) {
      if ((externalSeason.get(r.player_id) ?? -Infinity) > r.season) continue;
      externalSeason.set(r.player_id, r.season);
      external.set(r.player_id, r.rating);
    }
    const raw: (Partial<Record<PlayerAttribute, number>> | undefined)[] = [];
    players.forEach((p, i) => {
      this.index.set(p.id, i);
      const f = playerFacts(snapshot, p);
      const pos = (f.position in PITCH ? f.position : 'CM') as PositionCode;
      [this.x[i], this.y[i]] = PITCH[pos];
      this.group[i] = GROUPS.indexOf(POSITION_GROUP[pos]);
      this.position.push(f.position);
      if (!roleIds.has(f.role)) roleIds.set(f.role, roleIds.size);
      this.role[i] = roleIds.get(f.role)!;
      // Our rating; before a training, the latest external (EA) overall stands in for it.
      const rating = f.latestRating?.rating ?? external.get(p.id);
      if (rating !== undefined) this.rating[i] = rating;
      const value = latestValue(snapshot, p.id)?.value_eur;
      if (value !== undefined && value > 0) this.logValue[i] = Math.log(value);
      if (f.age !== null) this.age[i] = f.age;
      this.foot[i] = p.foot === null ? 0 : FEET.indexOf(p.foot) + 1;
      if (p.height_cm !== null && p.height_cm > 140) this.height[i] = p.height_cm;
      this.starts[i] = startShare(snapshot, p.id);
      const fee = list.feeEurOf(p.id);
      if (fee !== null) this.feeEur[i] = fee;
      this.listed[i] = f.inWorldNow ? 1 : 0;
      this.team.push(f.currentTeamId);
      this.owner.push(f.owningClubId);
      raw.push(snapshot.attributes.get(p.id));
    });
    this.standardiseStyle(raw);
    for (let i = 0; i < n; i++) {
      this.profiles.push({
        group: GROUPS[this.group[i]],
        role: playerFacts(snapshot, players[i]).role,
        foot: players[i].foot,
        height: Number.isNaN(this.height[i]) ? null : this.height[i],
        style: this.hasStyle[i] ? this.style.subarray(i * d, (i + 1) * d) : null,
      });
    }
  }

  static build(snapshot: Snapshot, list: ListIndex): SimilarIndex {
    return new SimilarIndex(snapshot, list.modelVersion, list);
  }

  get size(): number {
    return this.ids.length;
  }

  /** A player's style: each attribute minus his own mean, standardised within his position group. */
  private standardiseStyle(raw: readonly (Partial<Record<PlayerAttribute, number>> | undefined)[]): void {
    const d = STYLE.length;
    const n = raw.length;
    const centred = new Float32Array(n * d).fill(NaN);
    for (let i = 0; i < n; i++) {
      const a = raw[i];
      if (!a) continue;
      // Relative to his face stats' mean (every edition has them), so one edition's detail compares with another's.
      let sum = 0;
      let count = 0;
      for (const name of FACE) {
        const v = a[name];
        if (v !== undefined) {
          sum += v;
          count++;
        }
      }
      if (count < FACE.length) continue;
      const mean = sum / count;
      STYLE.forEach((name, k) => {
        const v = a[name];
        if (v !== undefined) centred[i * d + k] = v - mean;
      });
      this.hasStyle[i] = 1;
    }
    for (let g = 0; g < GROUPS.length; g++) {
      for (let k = 0; k < d; k++) {
        let s = 0;
        let s2 = 0;
        let m = 0;
        for (let i = 0; i < n; i++) {
          const v = centred[i * d + k];
          if (this.group[i] !== g || Number.isNaN(v)) continue;
          s += v;
          s2 += v * v;
          m++;
        }
        if (m < 2) continue;
        const mean = s / m;
        const sd = Math.sqrt(Math.max(s2 / m - mean * mean, 1e-6));
        for (let i = 0; i < n; i++) {
          const v = centred[i * d + k];
          if (this.group[i] === g && !Number.isNaN(v)) this.style[i * d + k] = (v - mean) / sd;
        }
      }
    }
  }

  /** Distance between players i and j; parts missing on either side count as an average difference. */
  private distance(i: number, j: number): number {
    const W = WEIGHTS;
    let dist = 0;
    dist += W.pitchAcross * Math.abs(this.x[i] - this.x[j]) + W.pitchUp * Math.abs(this.y[i] - this.y[j]);
    if (this.group[i] !== this.group[j]) dist += W.group;
    if (this.role[i] !== this.role[j]) dist += W.role;
    // An unknown level is no evidence of the same level: it counts as a wide gap.
    dist += W.rating * part(this.rating[i], this.rating[j], 6, 3, 1.5);
    dist += W.value * part(this.logValue[i], this.logValue[j], 1.1, 4, 1.5);
    dist += W.age * part(this.age[i], this.age[j], 5);
    dist += W.height * part(this.height[i], this.height[j], 8);
    dist += W.starts * part(this.starts[i], this.starts[j], 0.4);
    if (this.foot[i] !== 0 && this.foot[j] !== 0 && this.foot[i] !== this.foot[j]) dist += W.foot * (this.foot[i] === 3 || this.foot[j] === 3 ? 0.5 : 1);
    dist += W.style * this.styleDistance(i, j);
    return dist;
  }

  private styleDistance(i: number, j: number): number {
    if (!this.hasStyle[i] || !this.hasStyle[j] || this.group[i] !== this.group[j]) return WEIGHTS.styleUnknown;
    const d = STYLE.length;
    const s = this.style;
    let sum = 0;
    let m = 0;
    for (let k = 0; k < d; k++) {
      const a = s[i * d + k];
      const b = s[j * d + k];
      if (Number.isNaN(a) || Number.isNaN(b)) continue;
      sum += (a - b) * (a - b);
      m++;
    }
    // Root mean square over the attributes both have: about 1.4 between two players picked at random.
    return m < 4 ? WEIGHTS.styleUnknown : Math.sqrt(sum / m) / 2.5;
  }

  /** The most similar players at a club, covered and through the filters, other than him (who must be in the snapshot). */
  similar(q: SimilarQuery): SimilarItem[] {
    const me = this.index.get(q.playerId);
    if (me === undefined) throw new Error(`Player ${q.playerId} is not in this snapshot`);
    const n = this.ids.length;
    const f = q.filter;
    const positions = f.positions === undefined ? null : new Set(f.positions);
    const clubs = f.competitionId === undefined ? null : new Set(this.snapshot.clubsOfCompetition.get(f.competitionId) ?? []);
    // The amount shown for an EUR figure, as moneyPair makes it: the fee filter compares what is shown.
    const rate = fromEur(1, q.money.code, q.money.rates);
    const best: { i: number; d: number }[] = [];
    let worst = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === me || this.listed[j] === 0) continue;
      if (positions !== null && !positions.has(this.position[j])) continue;
      if (f.maxAge !== undefined && !(this.age[j] <= f.maxAge)) continue;
      if (f.maxExpectedTransferValue !== undefined && (Number.isNaN(this.feeEur[j]) || roundMoney(this.feeEur[j] * rate) > f.maxExpectedTransferValue)) continue;
      if (clubs !== null && (this.team[j] === null || !clubs.has(this.team[j]!))) continue;
      if (!q.scope.all && !q.scope.player(this.team[j], this.owner[j])) continue;
      const d = this.distance(me, j);
      if (best.length === q.limit && d >= worst) continue;
      best.push({ i: j, d });
      // Ties by service id (the row order): a stable sort keeps earlier rows first.
      best.sort((a, b) => a.d - b.d || a.i - b.i);
      if (best.length > q.limit) best.pop();
      worst = best.length === q.limit ? best[best.length - 1].d : Infinity;
    }
    return best.map(({ i, d }) => this.item(me, i, d, q.money));
  }

  private item(subject: number, j: number, d: number, money: Money): SimilarItem {
    const s = this.snapshot;
    const p = s.players.get(this.ids[j])!;
    const f = playerFacts(s, p);
    const club = f.currentTeamId === null ? undefined : s.clubs.get(f.currentTeamId);
    const value = latestValue(s, p.id)?.value_eur;
    const fee = Number.isNaN(this.feeEur[j]) ? null : moneyPair(this.feeEur[j], money.code, money.rates);
    return {
      service_id: p.id,
      name: p.name,
      age: f.age,
      club_id: club?.id ?? null,
      club_name: club?.name ?? null,
      position: f.position,
      player_role: f.role,
      similarity: Math.round(Math.exp(-d / SCALE) * 1000) / 1000,
      market_value_in_eur: value === undefined ? null : roundMoney(value),
      expected_transfer_value: fee?.amount ?? null,
      expected_transfer_value_in_eur: fee?.amountEur ?? null,
      shared_traits: sharedTraits(this.profiles[subject], this.profiles[j], {
        sameRole: this.role[subject] === this.role[j],
        sameLevel: Math.abs(this.rating[subject] - this.rating[j]) <= 3,
      }),
    };
  }
}

/** |a - b| / scale, capped (at 2 unless said); an unknown side counts as `unknown` (a typical difference unless said). */
function part(a: number, b: number, scale: number, cap = 2, unknown = 0.6): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return unknown;
  return Math.min(Math.abs(a - b) / scale, cap);
}

/** Share of his games he started in his latest season with games (club games only); NaN without any. */
function startShare(snapshot: Snapshot, playerId: string): number {
  const rows = snapshot.appearances.get(playerId);
  if (!rows || rows.length === 0) return NaN;
  let season = -Infinity;
  for (const r of rows) if (r.appearances > 0 && r.season > season) season = r.season;
  let apps = 0;
  let starts = 0;
  for (const r of rows) {
    if (r.season !== season || snapshot.clubs.get(r.club_id)?.is_national_team) continue;
    apps += r.appearances;
    starts += r.starts;
  }
  return apps > 0 ? starts / apps : NaN;
}
