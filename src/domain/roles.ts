import type { PositionCode } from './positions.js';

export interface Role {
  readonly role: string;
  readonly name: string;
  readonly description: string;
  readonly positions: readonly PositionCode[];
}

/** The role catalogue: every `player_role` the service returns is one of these. */
export const ROLES: readonly Role[] = [
  { role: 'SWEEPER_KEEPER', name: 'Sweeper Keeper', description: 'Goalkeeper who defends the space behind a high line and starts attacks with his feet.', positions: ['GK'] },
  { role: 'SHOT_STOPPER', name: 'Shot Stopper', description: 'Goalkeeper who stays on his line and is valued above all for saves and command of the box.', positions: ['GK'] },
  { role: 'BALL_PLAYING_DEFENDER', name: 'Ball-Playing Defender', description: 'Centre back who carries the ball out and breaks lines with passes.', positions: ['CB'] },
  { role: 'STOPPER', name: 'Stopper', description: 'Centre back who steps out to win the ball early and dominates duels in the air and on the ground.', positions: ['CB'] },
  { role: 'COVERING_DEFENDER', name: 'Covering Defender', description: 'Centre back who reads danger, drops off and sweeps up behind his partner.', positions: ['CB'] },
  { role: 'FULL_BACK', name: 'Full Back', description: 'Defender on the flank who defends first and supports attacks with overlaps and crosses.', positions: ['LB', 'RB'] },
  { role: 'INVERTED_FULL_BACK', name: 'Inverted Full Back', description: 'Full back who moves into midfield in possession to add a passer in the centre.', positions: ['LB', 'RB'] },
  { role: 'WING_BACK', name: 'Wing Back', description: 'Flank player who covers the whole touchline, providing width in attack and cover in defence.', positions: ['LWB', 'RWB', 'LB', 'RB'] },
  { role: 'ANCHOR', name: 'Anchor', description: 'Holding midfielder who screens the back line and keeps his position.', positions: ['CDM'] },
  { role: 'BALL_WINNING_MIDFIELDER', name: 'Ball-Winning Midfielder', description: 'Midfielder who presses, tackles and wins the ball back high and often.', positions: ['CDM', 'CM'] },
  { role: 'DEEP_LYING_PLAYMAKER', name: 'Deep-Lying Playmaker', description: 'Midfielder who sets the tempo from deep with range of passing.', positions: ['CDM', 'CM'] },
  { role: 'BOX_TO_BOX_MIDFIELDER', name: 'Box-to-Box Midfielder', description: 'Midfielder who contributes in both boxes with running, tackles and late arrivals.', positions: ['CM'] },
  { role: 'MEZZALA', name: 'Mezzala', description: 'Central midfielder who drifts into the half-spaces to create and finish.', positions: ['CM'] },
  { role: 'ADVANCED_PLAYMAKER', name: 'Advanced Playmaker', description: 'Creator between the lines who provides the final pass.', positions: ['CAM', 'CM'] },
  { role: 'SHADOW_STRIKER', name: 'Shadow Striker', description: 'Attacking midfielder who runs beyond the striker into scoring positions.', positions: ['CAM', 'CF'] },
  { role: 'WIDE_MIDFIELDER', name: 'Wide Midfielder', description: 'Midfielder on the flank who balances width in attack with defensive work.', positions: ['LM', 'RM'] },
  { role: 'TRADITIONAL_WINGER', name: 'Traditional Winger', description: 'Wide attacker who beats his man on the outside and crosses.', positions: ['LW', 'RW', 'LM', 'RM'] },
  { role: 'INSIDE_FORWARD', name: 'Inside Forward', description: 'Wide attacker who cuts inside onto his stronger foot to shoot.', positions: ['LW', 'RW', 'LF', 'RF'] },
  { role: 'INVERTED_WINGER', name: 'Inverted Winger', description: 'Wide player who moves inside to combine and create rather than cross.', positions: ['LW', 'RW', 'LM', 'RM'] },
  { role: 'FALSE_NINE', name: 'False Nine', description: 'Centre forward who drops deep to link play and open space for runners.', positions: ['CF', 'ST'] },
  { role: 'TARGET_FORWARD', name: 'Target Forward', description: 'Physical striker who holds the ball up and wins aerial duels.', positions: ['ST', 'CF'] },
  { role: 'POACHER', name: 'Poacher', description: 'Striker who lives in the box and finishes chances.', positions: ['ST'] },
  { role: 'COMPLETE_FORWARD', name: 'Complete Forward', description: 'Striker who scores, creates, holds up and presses.', positions: ['ST', 'CF', 'LF', 'RF'] },
  { role: 'PRESSING_FORWARD', name: 'Pressing Forward', description: 'Forward who leads the press and harries defenders.', positions: ['ST', 'CF', 'LF', 'RF'] },
];

export const ROLE_IDS: readonly string[] = ROLES.map((r) => r.role);
const BY_ID = new Map(ROLES.map((r) => [r.role, r]));
export function findRole(id: string): Role | undefined {
  return BY_ID.get(id);
}
