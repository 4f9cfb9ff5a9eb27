/** An answer the API gives on purpose: a status, the exact `error` string and any extra fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
  }

  body(): Record<string, unknown> {
    return { error: this.error, ...this.extra };
  }
}

export const UNEXPECTED = 'Unexpected server error. Please try again later.';
export const BODY_NOT_OBJECT = 'Body must be a JSON object';

export const notFound = {
  player: () => new ApiError(404, 'Player not found'),
  club: () => new ApiError(404, 'Club not found'),
  competition: () => new ApiError(404, 'Competition not found'),
};

export const forbidden = {
  player: () => new ApiError(403, 'Player is not in the allowed leagues'),
  club: () => new ApiError(403, 'Requested club is not allowed'),
  competition: () => new ApiError(403, 'Requested competition is not allowed'),
  analysis: () => new ApiError(403, 'This player is not available for analysis'),
};
