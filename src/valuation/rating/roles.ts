import type { PlayerRow } from '../../domain/world.js';
import { ROLES } from '../../domain/roles.js';
import { REFERENCE_SCALE } from './scale.js';

/**
 * Best role where no published rating gives one (ea-roles.ts reads EA's attributes): the catalogue's
 * roles that fit the position, scored on the traits the data holds (height, age, rating, foot
 * against the flank). A heuristic, since the data has no attributes: it keeps to what those traits
 * can say. A short striker is not a false nine for it (Endrick), nor a good striker a complete
 * forward, nor a good full back inverted (Hakimi), nor a tall keeper a shot stopper (Neuer).
 */
const ROLE_TRAITS: Record<string, { height?: number; age?: number; rating?: number; inverted?: number }> = {
  SWEEPER_KEEPER: { rating: 1, age: -0.3 }, SHOT_STOPPER: { height: 0.5, age: 0.3 },
  BALL_PLAYING_DEFENDER: { rating: 1, height: -0.3 }, STOPPER: { height: 1 }, COVERING_DEFENDER: { age: 1 },
  FULL_BACK: { age: 0.8 }, INVERTED_FULL_BACK: { inverted: 1, rating: 0.3 }, WING_BACK: { age: -1, rating: 0.3 },
  ANCHOR: { height: 1, age: 0.5 }, BALL_WINNING_MIDFIELDER: { rating: -0.8, age: -0.2 }, DEEP_LYING_PLAYMAKER: { age: 1, rating: 0.5 },
  BOX_TO_BOX_MIDFIELDER: { age: -1 }, MEZZALA: { rating: 0.8, height: -0.5 }, ADVANCED_PLAYMAKER: { rating: 1, height: -0.5 }, SHADOW_STRIKER: { height: -1 },
  WIDE_MIDFIELDER: { age: 1, inverted: -0.5 }, TRADITIONAL_WINGER: { inverted: -1 }, INSIDE_FORWARD: { inverted: 1 }, INVERTED_WINGER: { inverted: 0.7, age: 0.3 },
  FALSE_NINE: { rating: 0.5, age: 0.8, height: -0.3 }, TARGET_FORWARD: { height: 1.2 }, POACHER: { height: -0.3, rating: 0.3 },
  COMPLETE_FORWARD: { rating: 0.6, height: 0.3 }, PRESSING_FORWARD: { age: -0.4, rating: -0.5 },
};

export function bestRole(player: PlayerRow, position: string, rating: number, age: number): string {
  const fits = ROLES.filter((r) => (r.positions as readonly string[]).includes(position));
  if (fits.length === 0) return ROLES[0].role;
  const heightZ = player.height_cm ? (player.height_cm - 182) / 6 : 0;
  const ageZ = Number.isFinite(age) ? (age - 26) / 4 : 0;
  const ratingZ = (rating - REFERENCE_SCALE.mean) / REFERENCE_SCALE.sd;
  const left = position.startsWith('L');
  const right = position.startsWith('R');
  const inverted = player.foot === null || player.foot === 'Both' || (!left && !right) ? 0 : (left && player.foot === 'Right') || (right && player.foot === 'Left') ? 1 : -1;
  let best = fits[0].role;
  let bestScore = -Infinity;
  for (const r of fits) {
    const t = ROLE_TRAITS[r.role] ?? {};
    const s = (t.height ?? 0) * heightZ + (t.age ?? 0) * ageZ + (t.rating ?? 0) * ratingZ + (t.inverted ?? 0) * inverted;
    if (s > bestScore) {
      bestScore = s;
      best = r.role;
    }
  }
  return best;
}

