/**
 * Nearest neighbours over standardised numeric features (comparable players).
 *
 * Squared distance = sum_j w_j * ((a_j - b_j) / scale_j)^2, plus categoryPenalty^2 when the
 * categories differ (mode 'penalty'); a NaN on either side costs w_j * missingPenalty^2.
 * The index is plain JSON (raw rows, means, scales; a missing value may be NaN or, after a JSON
 * round trip, null); the typed-array layout used by the scan is rebuilt lazily and kept per
 * index object (domain/memo).
 */
import { memoTable } from '../../domain/memo.js';

export type CategoryMode = 'exact' | 'penalty' | 'ignore';

export interface KnnSettings {
  /** Per-feature weights (default 1 each). */
  weights?: readonly number[];
  /** 'exact': only rows of the query's category; 'penalty': mismatches pay categoryPenalty; 'ignore'. Default 'exact'. */
  categoryMode?: CategoryMode;
  /** Extra distance, in standardised units, for a category mismatch in 'penalty' mode (default 1). */
  categoryPenalty?: number;
  /** Distance per feature, in standardised units, when the row or the query lacks it (default 1). */
  missingPenalty?: number;
}

export interface ResolvedKnnSettings {
  weights: number[];
  categoryMode: CategoryMode;
  categoryPenalty: number;
  missingPenalty: number;
}

export interface KnnRow<T> {
  features: number[];
  category?: string;
  payload: T;
}

export interface KnnIndex<T> {
  kind: 'knn';
  version: 1;
  dim: number;
  settings: ResolvedKnnSettings;
  means: number[];
  scales: number[];
  rows: KnnRow<T>[];
}

export interface KnnQuery {
  features: ArrayLike<number>;
  category?: string;
}

export interface Neighbour<T> {
  payload: T;
  distance: number;
  /** Position of the row in the index (insertion order). */
  row: number;
}

export const KNN_VERSION = 1;

export function buildIndex<T>(rows: readonly KnnRow<T>[], settings: KnnSettings = {}): KnnIndex<T> {
  if (rows.length === 0) throw new RangeError('buildIndex: no rows');
  const dim = rows[0].features.length;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].features.length !== dim) {
      throw new RangeError(`buildIndex: row ${i} has ${rows[i].features.length} features, expected ${dim}`);
    }
  }
  const weights = settings.weights ? [...settings.weights] : new Array<number>(dim).fill(1);
  if (weights.length !== dim) throw new RangeError(`buildIndex: ${weights.length} weights for ${dim} features`);
  if (weights.some((w) => !(w >= 0) || !Number.isFinite(w))) throw new RangeError('buildIndex: weights must be finite and >= 0');
  const resolved: ResolvedKnnSettings = {
    weights,
    categoryMode: settings.categoryMode ?? 'exact',
    categoryPenalty: settings.categoryPenalty ?? 1,
    missingPenalty: settings.missingPenalty ?? 1,
  };
  if (!(resolved.categoryPenalty >= 0) || !(resolved.missingPenalty >= 0)) throw new RangeError('buildIndex: penalties must be >= 0');

  const means = new Array<number>(dim).fill(0);
  const scales = new Array<number>(dim).fill(1);
  for (let j = 0; j < dim; j++) {
    let n = 0;
    let s = 0;
    for (const r of rows) {
      const v = r.features[j];
      if (v === v) {
        if (!Number.isFinite(v)) throw new RangeError(`buildIndex: infinite value in feature ${j}`);
        n++;
        s += v;
      }
    }
    if (n === 0) continue;
    const m = s / n;
    let ss = 0;
    for (const r of rows) {
      const v = r.features[j];
      if (v === v) ss += (v - m) ** 2;
    }
    const sd = Math.sqrt(ss / n);
    means[j] = m;
    // A constant feature carries no distance; scale 1 keeps the arithmetic finite.
    scales[j] = sd > 0 ? sd : 1;
  }
  return {
    kind: 'knn',
    version: KNN_VERSION,
    dim,
    settings: resolved,
    means,
    scales,
    rows: rows.map((r) => ({ features: [...r.features], ...(r.category !== undefined ? { category: r.category } : {}), payload: r.payload })),
  };
}

interface Layout {
  /** Row-major standardised features, pre-multiplied by sqrt(weight). */
  z: Float64Array;
  missCost: Float64Array;
  factor: Float64Array;
  /** Category id per row (-1 = none). */
  cat: Int32Array;
  catIds: Map<string, number>;
  /** Rows of each category, ascending. */
  buckets: Uint32Array[];
  all: Uint32Array;
}

function layoutOf<T>(index: KnnIndex<T>): Layout {
  const memo = memoTable<Layout>(index, 'knn.layout');
  const cached = memo.get('layout');
  if (cached && cached.all.length === index.rows.length) return cached;
  const { dim, rows, means, scales, settings } = index;
  const n = rows.length;
  const factor = new Float64Array(dim);
  const missCost = new Float64Array(dim);
  for (let j = 0; j < dim; j++) {
    factor[j] = Math.sqrt(settings.weights[j]) / scales[j];
    missCost[j] = settings.weights[j] * settings.missingPenalty ** 2;
  }
  const z = new Float64Array(n * dim);
  const cat = new Int32Array(n);
  const catIds = new Map<string, number>();
  const bucketLists: number[][] = [];
  for (let i = 0; i < n; i++) {
    const f = rows[i].features;
    for (let j = 0; j < dim; j++) {
      // JSON turns NaN into null: both mean missing.
      const v: number | null = f[j];
      z[i * dim + j] = v === null ? NaN : (v - means[j]) * factor[j];
    }
    const c = rows[i].category;
    if (c === undefined) {
      cat[i] = -1;
    } else {
      let id = catIds.get(c);
      if (id === undefined) {
        id = catIds.size;
        catIds.set(c, id);
        bucketLists.push([]);
      }
      cat[i] = id;
      bucketLists[id].push(i);
    }
  }
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const layout: Layout = { z, missCost, factor, cat, catIds, buckets: bucketLists.map((b) => Uint32Array.from(b)), all };
  memo.set('layout', layout);
  return layout;
}

/**
 * The k rows closest to the query, nearest first; equal distances keep insertion order.
 * `filter` is consulted only for rows that would enter the current top k.
 */
export function nearest<T>(
  index: KnnIndex<T>,
  query: KnnQuery,
  k: number,
  filter?: (payload: T, row: number) => boolean,
): Neighbour<T>[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`nearest: bad k ${k}`);
  const { dim, settings } = index;
  if (query.features.length !== dim) throw new RangeError(`nearest: query has ${query.features.length} features, expected ${dim}`);
  if (k === 0) return [];
  const L = layoutOf(index);
  const q = new Float64Array(dim);
  for (let j = 0; j < dim; j++) q[j] = (query.features[j] - index.means[j]) * L.factor[j];

  const mode = settings.categoryMode;
  const queryCat = query.category === undefined ? -1 : (L.catIds.get(query.category) ?? -2);
  let candidates = L.all;
  if (mode === 'exact' && query.category !== undefined) {
    if (queryCat < 0) return [];
    candidates = L.buckets[queryCat];
  }
  const penalty2 = mode === 'penalty' ? settings.categoryPenalty ** 2 : 0;

  const bestD = new Float64Array(k);
  const bestR = new Int32Array(k);
  let size = 0;
  let worst = Infinity;
  const { z, missCost, cat } = L;
  for (let c = 0; c < candidates.length; c++) {
    const r = candidates[c];
    let acc = penalty2 !== 0 && cat[r] !== queryCat ? penalty2 : 0;
    const base = r * dim;
    for (let j = 0; j < dim && acc < worst; j++) {
      const d = z[base + j] - q[j];
      acc += d === d ? d * d : missCost[j];
    }
    if (!(acc < worst)) continue;
    if (filter && !filter(index.rows[r].payload, r)) continue;
    // Insert after any equal distance so earlier rows win ties.
    let p = size < k ? size : k - 1;
    while (p > 0 && bestD[p - 1] > acc) {
      bestD[p] = bestD[p - 1];
      bestR[p] = bestR[p - 1];
      p--;
    }
    bestD[p] = acc;
    bestR[p] = r;
    if (size < k) size++;
    if (size === k) worst = bestD[k - 1];
  }
  const out: Neighbour<T>[] = [];
  for (let i = 0; i < size; i++) out.push({ payload: index.rows[bestR[i]].payload, distance: Math.sqrt(bestD[i]), row: bestR[i] });
  return out;
}
