/**
 * Typed failures of the impact computations, for the HTTP layer to map.
 * Suggested mapping: unknown_club -> 404 `Club not found`; unknown_player -> 404 `Player not found`;
 * player_not_rated and club_without_league -> 403 `This player is not available for analysis`
 * (a club outside every current domestic league has no table to simulate);
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
