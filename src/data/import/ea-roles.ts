import { ROLES } from '../../domain/roles.js';

/**
 * The role of an EA-rated player from his EA attributes: each role of his position scores the
 * attributes that define it (a keeper's kicking and speed for a sweeper keeper, crossing and sprint
 * speed for a wing back...), each score standardised over the players of that position in the file,
 * and the best one wins. For wide players the foot against the flank counts too. Complete forwards
 * are strikers good at every striker's job: the weakest of the poacher, target and false-nine scores.
 */
export type EaAttributes = Readonly<Record<string, number>>;

/** Columns of the FC 24 file read for roles (keepers' face stats sit in the outfield columns: Pace = diving, Shooting = handling, Passing = kicking, Defending = speed). */
export const EA_ROLE_COLUMNS = [
  'Pace', 'Shooting', 'Passing', 'Dribbling', 'Defending', 'Physicality', 'Acceleration', 'Sprint', 'Positioning', 'Finishing', 'Shot', 'Long',
  'Vision', 'Crossing', 'Curve', 'Agility', 'Reactions', 'Ball', 'Composure', 'Interceptions', 'Heading', 'Def', 'Standing', 'Sliding', 'Jumping',
  'Stamina', 'Strength', 'Aggression',
] as const;
const WORK_RATE: Record<string, number> = { low: 40, medium: 60, high: 80 };

/** The attributes of one row of the file (work rates on the same 0-100 scale), or null when one is missing. */
export function eaAttributes(r: Readonly<Record<string, string | undefined>>): EaAttributes | null {
  const out: Record<string, number> = {};
  for (const c of EA_ROLE_COLUMNS) {
    const v = Number((r[c] ?? '').trim());
    if ((r[c] ?? '').trim() === '' || !Number.isFinite(v)) return null;
    out[c] = v;
  }
  out.AttWork = WORK_RATE[(r['Att work rate'] ?? '').trim().toLowerCase()] ?? 60;
  out.DefWork = WORK_RATE[(r['Def work rate'] ?? '').trim().toLowerCase()] ?? 60;
  return out;
}

const ROLE_ATTRIBUTES: Record<string, readonly string[]> = {
  SWEEPER_KEEPER: ['Passing', 'Passing', 'Defending'],
  SHOT_STOPPER: ['Pace', 'Shooting', 'Physicality'],
  BALL_PLAYING_DEFENDER: ['Passing', 'Ball', 'Composure', 'Vision'],
  STOPPER: ['Strength', 'Aggression', 'Heading', 'Jumping', 'Standing'],
  COVERING_DEFENDER: ['Interceptions', 'Def', 'Sprint', 'Reactions'],
  FULL_BACK: ['Def', 'Standing', 'Interceptions', 'Sliding'],
  INVERTED_FULL_BACK: ['Passing', 'Vision', 'Ball', 'Composure'],
  WING_BACK: ['Sprint', 'Acceleration', 'Crossing', 'Stamina', 'AttWork'],
  ANCHOR: ['Def', 'Interceptions', 'Strength', 'Heading'],
  BALL_WINNING_MIDFIELDER: ['Standing', 'Sliding', 'Aggression', 'Stamina', 'DefWork'],
  DEEP_LYING_PLAYMAKER: ['Passing', 'Vision', 'Curve', 'Composure', 'Ball'],
  BOX_TO_BOX_MIDFIELDER: ['Stamina', 'Standing', 'Shot', 'Interceptions', 'AttWork', 'DefWork'],
  MEZZALA: ['Dribbling', 'Positioning', 'Finishing', 'Agility', 'Ball'],
  ADVANCED_PLAYMAKER: ['Vision', 'Passing', 'Ball', 'Curve'],
  SHADOW_STRIKER: ['Positioning', 'Finishing', 'Shot', 'Sprint'],
  WIDE_MIDFIELDER: ['Stamina', 'Standing', 'Interceptions', 'Crossing', 'DefWork'],
  TRADITIONAL_WINGER: ['Crossing', 'Sprint', 'Acceleration'],
  INSIDE_FORWARD: ['Finishing', 'Shot', 'Positioning'],
  INVERTED_WINGER: ['Vision', 'Passing', 'Ball', 'Curve'],
  FALSE_NINE: ['Vision', 'Passing', 'Ball', 'Dribbling'],
  TARGET_FORWARD: ['Heading', 'Strength', 'Jumping'],
  POACHER: ['Finishing', 'Positioning', 'Reactions'],
  PRESSING_FORWARD: ['Stamina', 'Aggression', 'DefWork', 'Standing'],
};
/** Weight of the foot against the flank (+1 inverted, -1 same side) in the standardised scores. */
const FOOT_WEIGHT: Record<string, number> = { TRADITIONAL_WINGER: -0.8, INSIDE_FORWARD: 0.6, INVERTED_WINGER: 0.4, INVERTED_FULL_BACK: 0.3 };
const COMPLETE_PARTS = ['POACHER', 'TARGET_FORWARD', 'FALSE_NINE'];
/** Added to the complete forward's weakest part: being good at all three is worth a little over excelling at one. */
const COMPLETE_BONUS = 0.4;
const MIN_ROWS = 20;

export interface EaRoleInput {
  position: string;
  attributes: EaAttributes | null;
  /** EA's preferred foot: 'Left' or 'Right'. */
  foot: string;
}

const rawScore = (role: string, a: EaAttributes) => {
  const cols = ROLE_ATTRIBUTES[role];
  let s = 0;
  for (const c of cols) s += a[c];
  return s / cols.length;
};

/** The role of each row (null without attributes or without a role for its position), standardised over the whole batch. */
export function eaRoles(rows: readonly EaRoleInput[]): (string | null)[] {
  const stats = new Map<string, { mean: number; sd: number }>();
  const statOf = (position: string, role: string) => {
    const key = `${position}|${role}`;
    let s = stats.get(key);
    if (!s) {
      let pool = rows.filter((r) => r.attributes && r.position === position);
      if (pool.length < MIN_ROWS) pool = rows.filter((r) => r.attributes && r.position !== 'GK' && position !== 'GK');
      const v = pool.map((r) => rawScore(role, r.attributes!));
      const mean = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, v.length - 1)) || 1;
      stats.set(key, (s = { mean, sd }));
    }
    return s;
  };
  return rows.map((r) => {
    if (!r.attributes) return null;
    const fits = ROLES.filter((x) => (x.positions as readonly string[]).includes(r.position)).map((x) => x.role);
    if (fits.length === 0) return null;
    const left = r.position.startsWith('L');
    const right = r.position.startsWith('R');
    const foot = r.foot.trim().toLowerCase();
    const inverted = !left && !right ? 0 : (left && foot === 'right') || (right && foot === 'left') ? 1 : -1;
    const z = new Map<string, number>();
    for (const role of Object.keys(ROLE_ATTRIBUTES)) {
      const s = statOf(r.position, role);
      z.set(role, (rawScore(role, r.attributes) - s.mean) / s.sd + (FOOT_WEIGHT[role] ?? 0) * inverted);
    }
    z.set('COMPLETE_FORWARD', Math.min(...COMPLETE_PARTS.map((p) => z.get(p)!)) + COMPLETE_BONUS);
    let best = fits[0];
    for (const role of fits) if ((z.get(role) ?? -Infinity) > (z.get(best) ?? -Infinity)) best = role;
    return best;
  });
}
