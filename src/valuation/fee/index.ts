/**
 * Expected transfer fee: log(fee) = base + boosted correction, on real paid transfers with features
 * known the day before each transfer. The base scales with the player's latest market value, so the
 * fee is not capped by the largest fees the trees saw: they learn log(fee / value), which stays in
 * the range of their training leaves at any value. The 80% range comes from quantile models
 * (0.1 / 0.9) of the same correction, widened or narrowed by conformal calibration on the most
 * recent year of training transfers (out of time).
 *
 * The artifact and its settings in model.ts, a transfer's feature row in features.ts, fitting in
 * fit.ts, prediction in predict.ts.
 */
export { type BuyerFeatures, FEE_FEATURES, FEE_MODEL_VERSION, type FeeArtifact, type FeeBase, type FeeBaseKind, type FeeInput, type FeeOutput, type FeeSettings } from './model.js';
export { ageFloorAt, ageFloorsOf, feeFeatures, type FeeQuery, paidTransfers, transferFeatures, type UnknownBuyer, unknownBuyerOf } from './features.js';
export { fitFeeModel } from './fit.js';
export { BLEND_FROM_EUR, BLEND_TO_EUR, feeFromFeatures, predictFee, predictFeeAt, predictFeePoint } from './predict.js';
