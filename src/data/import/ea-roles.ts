import { ROLES } from '../../domain/roles.js';

/**
 * The role of an EA-rated player from his EA attributes: each role of his position scores the
 * attributes that define it (a keeper's kicking and speed for a sweeper keeper, crossing and sprint
 * speed for a wing back...), each score standardised over the players of that position in the file,
 * and the best one wins. For wide players the foot against the flank counts too.
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

/**
 * Weight of each attribute in a role: what the role needs, and (negative) what it does without (a
 * poacher's passing, a target man's sprint speed, a deep-lying playmaker's pace).
 */
const ROLE_ATTRIBUTES: Record<string, Readonly<Record<string, number>>> = {
  SWEEPER_KEEPER: { Passing: 1, Defending: 0.5 },
  SHOT_STOPPER: { Pace: 1, Shooting: 0.5, Physicality: 0.5, Passing: -0.5 },
  BALL_PLAYING_DEFENDER: { Passing: 1, Ball: 1, Composure: 1, Vision: 0.5 },
  STOPPER: { Strength: 1, Aggression: 1, Heading: 0.5, Jumping: 0.5, Standing: 0.5 },
  COVERING_DEFENDER: { Interceptions: 1, Sprint: 1, Acceleration: 0.5, Strength: -0.5 },
  FULL_BACK: { Def: 1, Standing: 1, Interceptions: 0.5, Sliding: 0.5, AttWork: -0.5 },
  INVERTED_FULL_BACK: { Passing: 1, Vision: 1, Ball: 0.5, Composure: 0.5, Sprint: -0.5 },
  WING_BACK: { Sprint: 1, Acceleration: 0.5, Crossing: 1, Stamina: 0.5, AttWork: 0.5 },
  ANCHOR: { Def: 1, Interceptions: 1, Strength: 0.5, Sprint: -0.5 },
  BALL_WINNING_MIDFIELDER: { Standing: 1, Sliding: 0.5, Aggression: 1, Stamina: 0.5, DefWork: 0.5, Vision: -0.5 },
  DEEP_LYING_PLAYMAKER: { Passing: 1, Vision: 0.5, Composure: 1, Curve: 0.5, Sprint: -0.5, Positioning: -0.5 },
  BOX_TO_BOX_MIDFIELDER: { Stamina: 1, Standing: 0.5, Shot: 0.5, AttWork: 0.5, DefWork: 0.5, Sprint: 0.3 },
  MEZZALA: { Dribbling: 1, Positioning: 0.5, Agility: 0.5, Ball: 0.5, Shot: 0.5, DefWork: -0.3 },
  ADVANCED_PLAYMAKER: { Vision: 1, Passing: 1, Dribbling: 0.5, Agility: 0.5, Curve: 0.5, Stamina: -0.3 },
  SHADOW_STRIKER: { Positioning: 1, Finishing: 1, Reactions: 0.5, Vision: -0.5 },
  WIDE_MIDFIELDER: { Stamina: 1, Standing: 0.5, Crossing: 0.5, DefWork: 1 },
  TRADITIONAL_WINGER: { Crossing: 1, Sprint: 1, Acceleration: 0.5 },
  INSIDE_FORWARD: { Finishing: 1, Shot: 0.5, Positioning: 1 },
  INVERTED_WINGER: { Vision: 1, Passing: 1, Ball: 0.5, Finishing: -0.3 },
  FALSE_NINE: { Vision: 1, Passing: 1, Ball: 0.5, Dribbling: 0.5, Strength: -0.5 },
  TARGET_FORWARD: { Heading: 1, Strength: 1, Jumping: 0.5, Sprint: -0.5 },
  POACHER: { Finishing: 1, Positioning: 1, Reactions: 0.5, Passing: -0.5, Vision: -0.5 },
  COMPLETE_FORWARD: { Finishing: 1, Passing: 1, Vision: 0.5, Heading: 0.5, Strength: 0.5, Dribbling: 0.5 },
  PRESSING_FORWARD: { Stamina: 1, Aggression: 1, DefWork: 1, Standing: 0.5, Finishing: -0.5 },
};
/** Weight of the foot against the flank (+1 inverted, -1 same side) in the standardised scores. */
const FOOT_WEIGHT: Record<string, number> = { TRADITIONAL_WINGER: -0.8, INSIDE_FORWARD: 0.6, INVERTED_WINGER: 0.4, INVERTED_FULL_BACK: 0.3 };
/** Taken off roles that ask for everything (a complete forward): only a clearly all-round player is one, not every good one. */
const ALL_ROUND_MARGIN: Record<string, number> = { COMPLETE_FORWARD: 0.35 };
const MIN_ROWS = 20;

export interface EaRoleInput {
  position: string;
  attributes: EaAttributes | null;
  /** EA's preferred foot: 'Left' or 'Right'. */
  foot: string;
}

const ROLE_COLUMNS = [...new Set(Object.values(ROLE_ATTRIBUTES).flatMap((w) => Object.keys(w)))];

/** The role of each row (null without attributes or without a role for its position), standardised over the whole batch. */
export function eaRoles(rows: readonly EaRoleInput[]): (string | null)[] {
  return eaRoleScores(rows).map((s) => s?.role ?? null);
}

/** Each row's standardised score of every role that fits his position, and the best of them. */
export function eaRoleScores(rows: readonly EaRoleInput[]): ({ role: string; scores: Record<string, number> } | null)[] {
  // Each attribute standardised over the players of the position (all outfield players where they are few).
  const stats = new Map<string, Map<string, { mean: number; sd: number }>>();
  const statsOf = (position: string) => {
    let m = stats.get(position);
    if (m) return m;
    let pool = rows.filter((r) => r.attributes && r.position === position);
    if (pool.length < MIN_ROWS) pool = rows.filter((r) => r.attributes && (position === 'GK') === (r.position === 'GK'));
    m = new Map();
    for (const c of ROLE_COLUMNS) {
      const v = pool.map((r) => r.attributes![c]);
      const mean = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, v.length - 1)) || 1;
      m.set(c, { mean, sd });
    }
    stats.set(position, m);
    return m;
  };
  return rows.map((r) => {
    if (!r.attributes) return null;
    const fits = ROLES.filter((x) => (x.positions as readonly string[]).includes(r.position)).map((x) => x.role);
    if (fits.length === 0) return null;
    const st = statsOf(r.position);
    const za = (c: string) => (r.attributes![c] - st.get(c)!.mean) / st.get(c)!.sd;
    const roleZ = (role: string) => {
      let s = 0;
      let w = 0;
      for (const [c, wc] of Object.entries(ROLE_ATTRIBUTES[role])) {
        s += wc * za(c);
        w += Math.abs(wc);
      }
      return s / w;
    };
    const left = r.position.startsWith('L');
    const right = r.position.startsWith('R');
    const foot = r.foot.trim().toLowerCase();
    const inverted = !left && !right ? 0 : (left && foot === 'right') || (right && foot === 'left') ? 1 : -1;
    const z = new Map<string, number>();
    for (const role of fits) z.set(role, roleZ(role) + (FOOT_WEIGHT[role] ?? 0) * inverted - (ALL_ROUND_MARGIN[role] ?? 0));
    let best = fits[0];
    for (const role of fits) if ((z.get(role) ?? -Infinity) > (z.get(best) ?? -Infinity)) best = role;
    return { role: best, scores: Object.fromEntries(fits.map((f) => [f, Math.round((z.get(f) ?? NaN) * 100) / 100])) };
  });
}
