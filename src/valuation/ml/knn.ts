/**
 * Nearest neighbours over standardised numeric features (comparable players).
 *
 * Squared distance = sum_j w_j * ((a_j - b_j) / scale_j)^2, plus categoryPenalty^2 when the
 * categories differ (mode 'penalty'); a NaN on either side costs w_j * missingPenalty^2.
 * The index holds no row objects: the standardised features and the categories are typed arrays
 * (what the scan reads), so an index of 100,000 rows is a few megabytes, and in the analysis workers
 * it lives once in the shared package (engine/package.ts) instead of once per thread. The caller keeps
 * what a row stands for in the same order (a neighbour is a row number). In an artifact's JSON the
 * arrays are plain arrays, a missing value null (`revivedIndex` turns them back).
 */

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

export interface KnnRow {
  /** NaN: missing */
  features: readonly number[];
  category?: string;
}

export interface KnnIndex {
  kind: 'knn';
  version: 2;
  dim: number;
  size: number;
  settings: ResolvedKnnSettings;
  means: number[];
  scales: number[];
  /** Row-major standardised features, each multiplied by sqrt(its weight); NaN: missing. */
  z: Float64Array;
  /** Category id of each row (an index into `categories`), -1 for none. */
  category: Int32Array;
  categories: string[];
  /** Rows grouped by category, ascending within a group: category c's are byCategory[categoryStart[c]] up to categoryStart[c + 1]. */
  byCategory: Uint32Array;
  categoryStart: Uint32Array;
}

export interface KnnQuery {
  features: ArrayLike<number>;
  category?: string;
}

export interface Neighbour {
  /** Position of the row in the index (the order of buildIndex's rows). */
  row: number;
  distance: number;
}

export const KNN_VERSION = 2;

/** Per feature: sqrt(weight) / scale, which standardises a value and weighs it at once. */
function factorsOf(index: Pick<KnnIndex, 'dim' | 'settings' | 'scales'>): Float64Array {
  const factor = new Float64Array(index.dim);
  for (let j = 0; j < index.dim; j++) factor[j] = Math.sqrt(index.settings.weights[j]) / index.scales[j];
  return factor;
}

export function buildIndex(rows: readonly KnnRow[], settings: KnnSettings = {}): KnnIndex {
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

  const n = rows.length;
  const factor = factorsOf({ dim, settings: resolved, scales });
  const z = new Float64Array(n * dim);
  const category = new Int32Array(n);
  const ids = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const f = rows[i].features;
    for (let j = 0; j < dim; j++) z[i * dim + j] = (f[j] - means[j]) * factor[j];
    const c = rows[i].category;
    if (c === undefined) category[i] = -1;
    else {
      let id = ids.get(c);
      if (id === undefined) ids.set(c, (id = ids.size));
      category[i] = id;
    }
  }
  const { byCategory, categoryStart } = groupRows(category, ids.size);
  return { kind: 'knn', version: KNN_VERSION, dim, size: n, settings: resolved, means, scales, z, category, categories: [...ids.keys()], byCategory, categoryStart };
}

function groupRows(category: Int32Array, categories: number): { byCategory: Uint32Array; categoryStart: Uint32Array } {
  const categoryStart = new Uint32Array(categories + 1);
  for (const c of category) if (c >= 0) categoryStart[c + 1]++;
  for (let c = 0; c < categories; c++) categoryStart[c + 1] += categoryStart[c];
  const byCategory = new Uint32Array(categoryStart[categories]);
  const next = categoryStart.slice(0, categories);
  for (let r = 0; r < category.length; r++) if (category[r] >= 0) byCategory[next[category[r]]++] = r;
  return { byCategory, categoryStart };
}

/** The index from an artifact's JSON, where its typed arrays were written as arrays and NaN as null. */
export function revivedIndex(json: KnnIndex): KnnIndex {
  if (json.version !== KNN_VERSION) throw new RangeError(`knn index version ${String(json.version)}, expected ${KNN_VERSION}`);
  const numbers = (a: ArrayLike<number | null>) => Float64Array.from(a, (v) => v ?? NaN);
  return {
    ...json,
    z: numbers(json.z),
    category: Int32Array.from(json.category),
    byCategory: Uint32Array.from(json.byCategory),
    categoryStart: Uint32Array.from(json.categoryStart),
  };
}

/**
 * The k rows closest to the query, nearest first; equal distances keep insertion order.
 * `filter` is consulted only for rows that would enter the current top k.
 */
export function nearest(index: KnnIndex, query: KnnQuery, k: number, filter?: (row: number) => boolean): Neighbour[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`nearest: bad k ${k}`);
  const { dim, settings, z, category } = index;
  if (query.features.length !== dim) throw new RangeError(`nearest: query has ${query.features.length} features, expected ${dim}`);
  if (k === 0) return [];
  const factor = factorsOf(index);
  const q = new Float64Array(dim);
  const missCost = new Float64Array(dim);
  for (let j = 0; j < dim; j++) {
    q[j] = (query.features[j] - index.means[j]) * factor[j];
    missCost[j] = settings.weights[j] * settings.missingPenalty ** 2;
  }

  const mode = settings.categoryMode;
  const found = query.category === undefined ? -1 : index.categories.indexOf(query.category);
  const queryCat = query.category === undefined ? -1 : found >= 0 ? found : -2;
  // null: every row, in order
  let candidates: Uint32Array | null = null;
  if (mode === 'exact' && query.category !== undefined) {
    if (queryCat < 0) return [];
    candidates = index.byCategory.subarray(index.categoryStart[queryCat], index.categoryStart[queryCat + 1]);
  }
  const penalty2 = mode === 'penalty' ? settings.categoryPenalty ** 2 : 0;

  const bestD = new Float64Array(k);
  const bestR = new Int32Array(k);
  let size = 0;
  let worst = Infinity;
  const count = candidates ? candidates.length : index.size;
  for (let c = 0; c < count; c++) {
    const r = candidates ? candidates[c] : c;
    let acc = penalty2 !== 0 && category[r] !== queryCat ? penalty2 : 0;
    const base = r * dim;
    for (let j = 0; j < dim && acc < worst; j++) {
      const d = z[base + j] - q[j];
      acc += d === d ? d * d : missCost[j];
    }
    if (!(acc < worst)) continue;
    if (filter && !filter(r)) continue;
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
  const out: Neighbour[] = [];
  for (let i = 0; i < size; i++) out.push({ row: bestR[i], distance: Math.sqrt(bestD[i]) });
  return out;
}
