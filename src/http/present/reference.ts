import type { ClubRow, PlayerRow } from '../../domain/world.js';

/** A club as the reference answers show it. */
export function presentClub(c: ClubRow) {
  return { service_id: c.id, registry_a_id: c.registry_a_id, name: c.name };
}

/** A player as the reference answers and lookups show him. */
export function presentPlayerSummary(p: PlayerRow) {
  return {
    service_id: p.id,
    registry_a_id: p.registry_a_id,
    registry_b_id: p.registry_b_id,
    name: p.name,
    first_name: p.first_name,
    last_name: p.last_name,
    alias: p.alias,
  };
}
