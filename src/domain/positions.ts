export const POSITIONS = [
  { id: 'GK', name: 'Goalkeeper' },
  { id: 'LWB', name: 'Left Wing Back' },
  { id: 'LB', name: 'Left Back' },
  { id: 'CB', name: 'Center Back' },
  { id: 'RB', name: 'Right Back' },
  { id: 'RWB', name: 'Right Wing Back' },
  { id: 'CDM', name: 'Defensive Midfielder' },
  { id: 'LM', name: 'Left Midfielder' },
  { id: 'CM', name: 'Central Midfielder' },
  { id: 'RM', name: 'Right Midfielder' },
  { id: 'CAM', name: 'Attacking Midfielder' },
  { id: 'LF', name: 'Left Forward' },
  { id: 'CF', name: 'Center Forward' },
  { id: 'RF', name: 'Right Forward' },
  { id: 'LW', name: 'Left Wing' },
  { id: 'ST', name: 'Striker' },
  { id: 'RW', name: 'Right Wing' },
] as const;

export type PositionCode = (typeof POSITIONS)[number]['id'];
export const POSITION_CODES: readonly PositionCode[] = POSITIONS.map((p) => p.id);

export function isPositionCode(s: unknown): s is PositionCode {
  return typeof s === 'string' && (POSITION_CODES as readonly string[]).includes(s);
}

/** Coarse groups used by squad building, playing time and comparables. */
export type PositionGroup = 'GK' | 'DEF' | 'MID' | 'FWD';
export const POSITION_GROUP: Record<PositionCode, PositionGroup> = {
  GK: 'GK',
  LWB: 'DEF', LB: 'DEF', CB: 'DEF', RB: 'DEF', RWB: 'DEF',
  CDM: 'MID', LM: 'MID', CM: 'MID', RM: 'MID', CAM: 'MID',
  LF: 'FWD', CF: 'FWD', RF: 'FWD', LW: 'FWD', ST: 'FWD', RW: 'FWD',
};
