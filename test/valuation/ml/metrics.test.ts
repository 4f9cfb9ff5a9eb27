import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  averageRanks, intervalCoverage, logLoss, meanAbsoluteError, median, medianAbsolutePercentageError, pinballLoss,
  r2, rankedProbabilityScore, rootMeanSquaredError, shareWithin, spearman,
} from '../../../src/valuation/ml/metrics.js';

const close = (a: number, b: number, eps = 1e-9): void => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

test('r2 against a hand computation', () => {
  // mean 2.5, SS_tot = 5, SS_res = 1
  close(r2([1, 2, 3, 4], [1, 2, 3, 5]), 0.8);
  close(r2([1, 2, 3], [1, 2, 3]), 1);
  close(r2([1, 2, 3], [2, 2, 2]), 0);
  assert.ok(r2([1, 2, 3], [3, 2, 1]) < 0);
  assert.throws(() => r2([1, 2], [1]));
});

test('spearman uses average ranks for ties', () => {
  assert.deepEqual([...averageRanks([10, 20, 20, 5])], [2, 3.5, 3.5, 1]);
  // ranks a = [1, 2.5, 2.5, 4], b = [1, 3, 2, 4] -> 4.5 / sqrt(4.5 * 5)
  close(spearman([1, 2, 2, 3], [1, 3, 2, 4]), Math.sqrt(0.9));
  close(spearman([1, 2, 3, 4], [10, 100, 1000, 10000]), 1);
  close(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  assert.ok(Number.isNaN(spearman([1, 1, 1], [1, 2, 3])));
});

test('percentage errors', () => {
  // errors 0.1, 0.25, 0 (the zero target is left out)
  close(medianAbsolutePercentageError([100, 200, 50, 0], [110, 150, 50, 5]), 0.1);
  close(shareWithin([100, 200, 50, 0], [110, 150, 50, 5], 0.1), 0.5);
  close(median([3, 1, 2, 10]), 2.5);
  close(meanAbsoluteError([1, 2], [2, 4]), 1.5);
  close(rootMeanSquaredError([0, 0], [3, 4]), Math.sqrt(12.5));
});

test('pinball loss', () => {
  // alpha 0.9: over-prediction by 1 costs 0.1, under-prediction by 1 costs 0.9
  close(pinballLoss([1, 2, 3], [2, 2, 2], 0.9), 1 / 3);
  close(pinballLoss([1, 2, 3], [2, 2, 2], 0.5), 1 / 3);
  close(pinballLoss([0], [4], 0.1), 3.6);
  assert.throws(() => pinballLoss([1], [1], 1));
});

test('ranked probability score and log loss', () => {
  const probs = [[0.2, 0.5, 0.3], [1, 0, 0]];
  // row 1: ((0.2-0)^2 + (0.7-1)^2) / 2 = 0.065; row 2: ((1-0)^2 + (1-0)^2) / 2 = 1
  close(rankedProbabilityScore(probs, [1, 2]), (0.065 + 1) / 2);
  close(rankedProbabilityScore([[0, 1, 0]], [1]), 0);
  close(logLoss([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]], [1, 0]), (-Math.log(0.5) - Math.log(0.9)) / 2);
  assert.ok(Number.isFinite(logLoss([[1, 0]], [1])));
  assert.throws(() => logLoss([[0.5, 0.5]], [2]));
});

test('interval coverage counts the bounds as inside', () => {
  close(intervalCoverage([1, 5, 3], [0, 0, 3], [2, 4, 4]), 2 / 3);
});
