/**
 * Histogram gradient boosting regression, after scikit-learn's HistGradientBoostingRegressor and
 * LightGBM: quantile bins per feature (NaN gets its own bin and a learned direction), leaf-wise or
 * depth-wise trees grown from gradient histograms (the larger child's histogram is the parent's
 * minus the smaller child's), squared-error or pinball (quantile) loss, seeded row subsampling,
 * early stopping on a seeded validation split, and monotonic constraints (split-level check plus
 * value bounds propagated to the children).
 *
 * The fitted model is plain JSON; prediction walks raw thresholds, so it needs no binning.
 * Settings and the model's shape in gbm/settings.ts, binning in gbm/bins.ts, growing one tree in
 * gbm/trees.ts, the boosting loop and its losses in gbm/fit.ts, prediction in gbm/predict.ts.
 */
export { GBM_VERSION, type GbmLoss, type GbmModel, type GbmSettings, type GbmTree, type GrowPolicy, type ResolvedGbmSettings, resolveGbmSettings } from './gbm/settings.js';
export { fitGbm } from './gbm/fit.js';
export { compiledForm, featureImportance, predictGbm, predictGbmBatch } from './gbm/predict.js';
