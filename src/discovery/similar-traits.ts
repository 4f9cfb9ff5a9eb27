/**
 * The attributes a play style is read from, and the short phrases /similar_players shows for what two
 * players share (a trait both have, strongest first).
 */
import { findRole } from '../domain/roles.js';
import type { PlayerAttribute } from '../domain/world.js';

/** Attributes compared as a style, in the order of the style vector. */
export const STYLE: readonly PlayerAttribute[] = [
  'pace', 'acceleration', 'sprint_speed', 'finishing', 'positioning', 'shot_power', 'long_shots', 'volleys',
  'vision', 'crossing', 'passing', 'curve', 'free_kick', 'ball_control', 'dribbling', 'agility', 'balance',
  'composure', 'reactions', 'interceptions', 'defensive_awareness', 'standing_tackle', 'sliding_tackle',
  'heading', 'jumping', 'stamina', 'strength', 'aggression',
];
/** The six face stats: the mean a style is taken relative to (every edition has them). */
export const FACE: readonly PlayerAttribute[] = ['pace', 'shooting', 'passing', 'dribbling', 'defending', 'physicality'];

/** What the phrases are read from, for one player. */
export interface TraitProfile {
  readonly group: 'GK' | 'DEF' | 'MID' | 'FWD';
  readonly role: string;
  readonly foot: 'Right' | 'Left' | 'Both' | null;
  readonly height: number | null;
  /** Standardised style (STYLE order; NaN unknown), or null without an attribute profile. */
  readonly style: Float32Array | null;
}

/** A style trait: its phrase, the attributes it averages, and the groups it is said of. */
const TRAITS: ReadonlyArray<{ phrase: string; of: readonly PlayerAttribute[]; groups: readonly TraitProfile['group'][] }> = [
  { phrase: 'press-resistant passer', of: ['composure', 'ball_control', 'passing'], groups: ['DEF', 'MID'] },
  { phrase: 'creative passer', of: ['vision', 'passing', 'curve'], groups: ['MID', 'FWD'] },
  { phrase: 'clinical finisher', of: ['finishing', 'positioning', 'volleys'], groups: ['MID', 'FWD'] },
  { phrase: 'pace to burn', of: ['pace', 'sprint_speed', 'acceleration'], groups: ['DEF', 'MID', 'FWD'] },
  { phrase: 'aerial presence', of: ['heading', 'jumping', 'strength'], groups: ['DEF', 'MID', 'FWD'] },
  { phrase: 'ball winner', of: ['interceptions', 'standing_tackle', 'sliding_tackle', 'defensive_awareness'], groups: ['DEF', 'MID'] },
  { phrase: 'close control dribbler', of: ['dribbling', 'agility', 'balance', 'ball_control'], groups: ['MID', 'FWD'] },
  { phrase: 'long-range shooter', of: ['long_shots', 'shot_power'], groups: ['MID', 'FWD'] },
  { phrase: 'dangerous crosser', of: ['crossing', 'curve'], groups: ['DEF', 'MID', 'FWD'] },
  { phrase: 'tireless runner', of: ['stamina', 'aggression'], groups: ['DEF', 'MID', 'FWD'] },
  { phrase: 'physical presence', of: ['strength', 'aggression', 'jumping'], groups: ['DEF', 'MID', 'FWD'] },
  { phrase: 'quick off the line', of: ['pace', 'acceleration', 'reactions'], groups: ['GK'] },
  { phrase: 'good with his feet', of: ['passing', 'ball_control', 'composure', 'vision'], groups: ['GK'] },
];
/** How far above his group's usual style (in standard deviations) both must be for a trait to be shared. */
const TRAIT_MIN = 0.45;
const TALL_CM = 190;
const MAX_TRAITS = 3;
const AT = new Map(STYLE.map((a, k) => [a, k]));

function traitScore(style: Float32Array, of: readonly PlayerAttribute[]): number {
  let s = 0;
  let m = 0;
  for (const a of of) {
    const v = style[AT.get(a) ?? -1];
    if (v === undefined || Number.isNaN(v)) continue;
    s += v;
    m++;
  }
  return m === 0 ? NaN : s / m;
}

/** Up to three short phrases for what both players have: style traits strongest first, then foot, role, height, level. */
export function sharedTraits(a: TraitProfile, b: TraitProfile, also: { sameRole: boolean; sameLevel: boolean }): string[] {
  const scored: { phrase: string; score: number }[] = [];
  if (a.style && b.style && a.group === b.group) {
    for (const t of TRAITS) {
      if (!t.groups.includes(a.group)) continue;
      const score = Math.min(traitScore(a.style, t.of), traitScore(b.style, t.of));
      if (score >= TRAIT_MIN) scored.push({ phrase: t.phrase, score });
    }
  }
  const out = scored.sort((x, y) => y.score - x.score).map((t) => t.phrase);
  if (a.foot === 'Left' && b.foot === 'Left') out.push('left-footed');
  if (a.foot === 'Both' && b.foot === 'Both') out.push('two-footed');
  if (also.sameRole) out.push((findRole(a.role)?.name ?? a.role).toLowerCase());
  if (a.group !== 'GK' && !out.includes('aerial presence') && (a.height ?? 0) >= TALL_CM && (b.height ?? 0) >= TALL_CM) out.push('aerial presence');
  if (also.sameLevel) out.push('same level');
  return out.slice(0, MAX_TRAITS);
}
