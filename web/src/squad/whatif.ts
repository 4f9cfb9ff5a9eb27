/** A squad entry as /v1/squad_analysis takes and echoes it. */
export interface SquadEntry {
  readonly player_id: string;
  readonly position: string;
  readonly name?: string;
}

/**
 * A what-if as changes to the club's actual squad: players taken out, and players put at a position
 * (moved within the squad, or added to it). Kept small so it fits in a shared URL.
 */
export interface WhatIf {
  readonly remove: readonly string[];
  readonly set: Readonly<Record<string, string>>;
}

export const NO_CHANGE: WhatIf = { remove: [], set: {} };

export function isUnchanged(w: WhatIf): boolean {
  return w.remove.length === 0 && Object.keys(w.set).length === 0;
}

export function applyWhatIf(actual: readonly SquadEntry[], w: WhatIf): SquadEntry[] {
  const removed = new Set(w.remove);
  const out = actual.filter((e) => !removed.has(e.player_id)).map((e) => (w.set[e.player_id] ? { ...e, position: w.set[e.player_id] } : e));
  const present = new Set(out.map((e) => e.player_id));
  for (const [player_id, position] of Object.entries(w.set)) {
    if (!present.has(player_id) && !removed.has(player_id)) out.push({ player_id, position });
  }
  return out;
}

export function removePlayer(w: WhatIf, playerId: string, inActual: boolean): WhatIf {
  const set = { ...w.set };
  delete set[playerId];
  return { remove: inActual && !w.remove.includes(playerId) ? [...w.remove, playerId] : w.remove, set };
}

export function setPosition(w: WhatIf, playerId: string, position: string): WhatIf {
  return { remove: w.remove.filter((p) => p !== playerId), set: { ...w.set, [playerId]: position } };
}

const ID = /^[A-Za-z0-9]{1,40}$/;
const POS = /^[A-Z]{2,3}$/;

export function whatIfToQuery(w: WhatIf): URLSearchParams {
  const q = new URLSearchParams();
  if (w.remove.length) q.set('remove', w.remove.join(','));
  const set = Object.entries(w.set).map(([p, pos]) => `${p}:${pos}`);
  if (set.length) q.set('set', set.join(','));
  return q;
}

/** Reads a shared what-if, ignoring anything malformed rather than sending it to the API. */
export function whatIfFromQuery(q: URLSearchParams): WhatIf {
  const remove = (q.get('remove') ?? '').split(',').filter((p) => ID.test(p));
  const set: Record<string, string> = {};
  for (const pair of (q.get('set') ?? '').split(',')) {
    const [p, pos] = pair.split(':');
    if (p && pos && ID.test(p) && POS.test(pos)) set[p] = pos;
  }
  return { remove: [...new Set(remove)], set };
}
