/**
 * Typed failures of the impact computations, for the HTTP layer to map.
 * Suggested mapping: unknown_club -> 404 `Club not found`; unknown_player -> 404 `Player not found`;
 * player_not_rated -> 403 `This player is not available for analysis`; club_without_league (a
 * national team, or a club in no domestic league of the analysis season) -> 400
 * `Club has no domestic league to simulate`;
 * invalid_squad_entry -> 400 `Invalid squad entry at index <index>`.
 */
export type ImpactErrorCode = 'unknown_club' | 'unknown_player' | 'club_without_league' | 'player_not_rated' | 'invalid_squad_entry' | 'no_training_data';

export class ImpactError extends Error {
  constructor(
    readonly code: ImpactErrorCode,
    message: string,
    /** index of the squad entry at fault (squad analysis) */
    readonly index: number | null = null,
  ) {
    super(message);
    this.name = 'ImpactError';
  }
}
