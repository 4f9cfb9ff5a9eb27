/** The fee model's features, settings and artifact (plain JSON). */
import type { GbmModel, GbmSettings } from '../ml/gbm.js';
import type { ContractCurve } from './contract.js';
import type { ConformalRange } from '../ml/conformal.js';

export const FEE_MODEL_VERSION = 7;

export const FEE_FEATURES = [
  'log_value', 'value_age_days', 'log_peak_value', 'value_trend', 'age', 'position_group', 'contract_months', 'tenure_years',
  'seller_strength', 'seller_league_strength', 'seller_tier', 'buyer_strength', 'buyer_league_strength', 'buyer_tier', 'year',
  'inflation', 'minutes_share', 'last_fee_to_value', 'years_since_last_fee', 'at_buyer',
] as const;
export const F = Object.fromEntries(FEE_FEATURES.map((f, i) => [f, i])) as Record<(typeof FEE_FEATURES)[number], number>;

/** +1: the fee never falls as the feature grows. Fewer contract months never raise the fee. */
export const MONOTONE: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { contract_months: 1, log_value: 1 };
/**
 * With 'buyer' monotonicity a stronger buyer (club, league, higher tier) never pays less; it also keeps
 * the fee monotone in value when the unknown buyer is the typical buyer of players at that value.
 */
export const MONOTONE_BUYER: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { buyer_strength: 1, buyer_league_strength: 1, buyer_tier: -1 };
/**
 * With 'seller' monotonicity a stronger seller never sells for less: it need not sell. Without it the
 * trees read the cheap exits of players the strongest clubs no longer needed as a discount on every
 * player of those clubs, stars included.
 */
export const MONOTONE_SELLER: Partial<Record<(typeof FEE_FEATURES)[number], number>> = { seller_strength: 1, seller_league_strength: 1, seller_tier: -1 };

/**
 * What the trees correct: 'value' = log latest value (the trees learn log(fee / value)); 'linear' =
 * a least-squares line in log value (slope kept >= 0); 'none' = nothing (the trees learn log(fee)
 * and cannot go past their largest leaf). The model card's fee backtest scores them.
 */
export type FeeBaseKind = 'value' | 'linear' | 'none';

export interface FeeBase {
  kind: FeeBaseKind;
  intercept: number;
  slope: number;
  /** Base of a player with no market value at all: median log fee of such training transfers. */
  missing: number;
}

export interface FeeSettings {
  seed?: number;
  /** Default 'value'. */
  base?: FeeBaseKind;
  /** The point fee: 'median' (pinball loss at 0.5 on the log scale, default) or 'mean' (squared error). */
  center?: 'median' | 'mean';
  /**
   * The buyer of a query without one: 'by_value' (default) the typical buyer of training transfers of
   * players at his value, 'overall' the median buyer of all training transfers.
   */
  unknownBuyer?: 'by_value' | 'overall';
  /** Training transfers count half as much every this many years before the as-of date (default null: all alike). */
  halfLifeYears?: number | null;
  /** Price a player younger than the usual sellers at his value at their age (default true; see ageFloorsOf). */
  ageFloor?: boolean;
  /** Nominal coverage of the range (default 0.8). */
  coverage?: number;
  /** Days at the end of the training period held out to calibrate the range (default 365). */
  calibrationDays?: number;
  /**
   * The date features the trees may split on: 'all' (year and market inflation), 'inflation' (the
   * market's level, not the calendar), 'none', or 'blend' (default): the point fee of a player
   * worth up to BLEND_FROM_EUR from trees with both, above BLEND_TO_EUR from trees with neither,
   * and a mix in between (linear in log value). Cheap fees drift with the calendar and the trees
   * follow that; a year holds few top-of-market fees, and trees that split on the year price every
   * star by the last one's swing.
   */
  timeFeatures?: 'all' | 'inflation' | 'none' | 'blend';
  /** A stronger seller never sells for less (default true). */
  sellerMonotone?: boolean;
  /**
   * The range's calibration offset is found separately in this many bins of the player's value
   * (equal counts of the calibration year), so cheap and expensive players are each covered at the
   * nominal rate (default 3; 1 = one offset for all). By value rather than by the predicted fee, so
   * a longer contract or a stronger buyer never lowers either end of the range.
   */
  rangeBins?: number;
  gbm?: GbmSettings;
}

export interface BuyerFeatures {
  strength: number;
  leagueStrength: number;
  tier: number;
}

export interface FeeArtifact {
  kind: 'fee';
  version: number;
  features: readonly string[];
  trainedAsOf: string;
  base: FeeBase;
  center: GbmModel;
  /** 'blend': the point fee's trees without date features, mixed in by value (see FeeSettings.timeFeatures). */
  centerLong: GbmModel | null;
  low: GbmModel;
  high: GbmModel;
  /** Added (in log units) to both ends of the quantile range so the calibration year is covered at the nominal rate. */
  rangeOffset: number;
  /**
   * Per bin of log value: offsets[i] for players worth up to logValueUpper[i] (the last one above).
   * Null: rangeOffset for all (and for a player without a value).
   */
  rangeOffsets: { logValueUpper: number[]; offsets: number[] } | null;
  /**
   * The 80% range around the point fee, per bin of his log value, from the backtest's held-back
   * transfers (split-conformal, set by training: backtest/index.ts); null: the quantile trees' range.
   */
  backtestRange: ConformalRange | null;
  coverage: number;
  /** The average buyer: median buyer features of the training transfers. */
  averageBuyer: BuyerFeatures;
  /**
   * The buyer of a query without one, by the player's log value: buyers[i] for values up to
   * logValueUpper[i] (the last one above). Null: always the average buyer.
   */
  typicalBuyers: { logValueUpper: number[]; buyers: BuyerFeatures[] } | null;
  /**
   * The youngest usual age of a transfer at a value: the 10th percentile of age of the training
   * transfers in value bins (equal counts), at each bin's median log value; between two bins linear,
   * beyond the ends flat. A player younger than that is priced at that age (see ageFloorAt).
   */
  ageFloors: { logValue: number[]; age: number[] } | null;
  /** Months left on the contract, where the trees did not learn them (see contract.ts); null: the trees did, or too little data. */
  contract: ContractCurve | null;
  stats: {
    transfers: number;
    calibrationTransfers: number;
    calibrationStart: string;
    rawCalibrationCoverage: number;
    calibratedCoverage: number;
    trainingR2Log: number;
  };
}

export interface FeeInput {
  playerId: string;
  targetClubId?: string | null;
  contractEndDate?: string | null;
}

export interface FeeOutput {
  feeEur: number;
  lowEur: number;
  highEur: number;
}
