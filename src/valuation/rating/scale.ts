/** EA FC 24 overall ratings (15,845 players): mean and standard deviation, the scale of the fallback. */
export const REFERENCE_SCALE = { mean: 66.3, sd: 6.7 } as const;
