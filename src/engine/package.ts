/**
 * The world and the models as the workers receive them: serialised once per (snapshot source,
 * model bundle) into a SharedArrayBuffer, which every task carries by reference (postMessage
 * shares it, it does not copy it). A worker unpacks it once, when a task names a package it does
 * not hold yet; so a world swap (import, retraining, `leagues set-clubs`) reaches every worker with
 * its first task on the new data, and nothing is copied per task.
 *
 * Packing is done in slices, yielding to the event loop between them: serialising the demo world in
 * one call held the main thread for about a second at start and at every swap (health checks and
 * every request waited). Large arrays (the world's tables, the models' rows) are cut into chunks of
 * CHUNK_ROWS and the objects at PART_DEPTH (the world's tables, each model) made parts, each serialised
 * on its own; the rest (the skeleton) names them by index.
 *
 * Large typed arrays (the feature index's columns, the comparables index and columns of the future
 * model, the gradient-boosted models' compiled trees) are not serialised: their bytes are copied into the buffer once and every worker reads them
 * through a view of it, so they are held once, not once per worker. Nothing writes to them after
 * they are built.
 *
 * The feature index goes in built (the main thread's), the world rows as the workers read them
 * (workerRows): only the rows a task reads, and the models as they predict (workerBundle).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { deserialize, serialize } from 'node:v8';
import type { Snapshot } from '../domain/snapshot.js';
import type { CareerStepRow, RatingRow } from '../domain/world.js';
import { isPaidPermanent } from '../valuation/fee/features.js';
import { snapshotOf, type SnapshotSource } from '../domain/snapshot-source.js';
import type { ModelBundle } from '../valuation/bundle.js';
import type { FeatureColumns } from '../valuation/features/columns.js';
import { compiledForm, type GbmModel } from '../valuation/ml/gbm.js';
import { adoptFeatureColumns } from '../valuation/features/index.js';

export interface EnginePackage {
  /** Names the snapshot and models inside: equal keys, equal contents. */
  readonly key: string;
  readonly bytes: SharedArrayBuffer;
  /** [offset, length, encoding] of each serialised part in `bytes`; part 0 is the skeleton */
  readonly parts: readonly (readonly [number, number, Encoding])[];
  /** [type, byte offset, element count] of each typed array shared in `bytes` */
  readonly arrays: readonly (readonly [SharedArrayType, number, number])[];
}

const SHARED_TYPES = { Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array } as const;
type SharedArrayType = keyof typeof SHARED_TYPES;
type SharedArray = InstanceType<(typeof SHARED_TYPES)[SharedArrayType]>;
/** typed arrays at least this large are shared rather than serialised */
const SHARED_MIN_BYTES = 4096;

/**
 * How a part is serialised: v8's serialize, or JSON for the world's rows. JSON.parse builds each row
 * with its fields inside the object, where v8's deserialize adds them one by one to a separate
 * property store: about 55 bytes more a row, 10 MB a worker on the real data's 190,000 rows (a heap
 * snapshot of a worker; docs/engine.md). The rows are plain values (strings, finite numbers, booleans,
 * null), which JSON keeps as they are; a row that is not stops the packing (jsonRows).
 */
type Encoding = 'v8' | 'json';

export interface Packed {
  /** the snapshot's source as the workers read it (workerRows) */
  source: SnapshotSource;
  bundle: ModelBundle;
  /** the snapshot's feature index, as built on the main thread */
  features: FeatureColumns;
}

/** arrays longer than this are cut into chunks, each serialised in a turn of its own: a few milliseconds of the main thread each */
const CHUNK_ROWS = 4000;
/** rows per chunk of rows sent as JSON: checking and writing a row as JSON costs about 5 µs, four times v8's serialize */
const JSON_CHUNK_ROWS = 1000;
/** bytes copied into the shared buffer between two turns of the event loop */
const COPY_SLICE_BYTES = 4 * 2 ** 20;
/**
 * plain objects and arrays are walked this deep looking for large arrays (source.world.table,
 * bundle.model.rows) and typed arrays (bundle.fee.center.compiled.threshold, bundle.rating.update.folds[i].compiled.value)
 */
const MAX_DEPTH = 8;
const CHUNKS = '__engineChunks';
const ARRAY = '__engineArray';
const PART = '__enginePart';
/**
 * plain objects this deep (source.world, each model of the bundle) are serialised on their own, so
 * the skeleton is not one long slice (with every model in it, 15 ms of the main thread on the real data)
 */
const PART_DEPTH = 2;
/** the object whose arrays are rows, sent as JSON (Encoding): source.world */
const ROWS_AT = ['source', 'world'] as const;

function sharedTypeOf(v: unknown): SharedArrayType | null {
  if (!ArrayBuffer.isView(v) || v.byteLength < SHARED_MIN_BYTES) return null;
  const name = v.constructor.name;
  return name in SHARED_TYPES ? (name as SharedArrayType) : null;
}

interface Found {
  /** each chunk as [array, from, to, encoding]: sliced when it is serialised, in its own turn of the event loop */
  chunks: (readonly [readonly unknown[], number, number, Encoding])[];
  arrays: SharedArray[];
}

export function packageKey(source: SnapshotSource, bundle: ModelBundle): string {
  return `${source.asOf}|${source.dataVersion}|${source.ratingsVersion}|${source.membershipVersion}|${bundle.version}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The skeleton of `value`: large arrays replaced by `{[CHUNKS]: [first chunk, count]}`, their slices
 * pushed to `found.chunks`; large typed arrays by `{[ARRAY]: i}`, themselves pushed to `found.arrays`;
 * plain objects at PART_DEPTH by `{[PART]: i}`, their own skeleton pushed to `found.chunks` alone.
 */
function skeletonOf(value: unknown, found: Found, depth: number, encoding: Encoding, onRowsPath: boolean): unknown {
  if (sharedTypeOf(value)) return { [ARRAY]: found.arrays.push(value as SharedArray) - 1 };
  const chunks = found.chunks;
  if (Array.isArray(value) && value.length > CHUNK_ROWS) {
    const first = chunks.length;
    const size = encoding === 'json' ? JSON_CHUNK_ROWS : CHUNK_ROWS;
    for (let i = 0; i < value.length; i += size) chunks.push([value as unknown[], i, Math.min(i + size, value.length), encoding]);
    return { [CHUNKS]: [first, chunks.length - first] };
  }
  if (depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => skeletonOf(v, found, depth + 1, encoding, false));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const onPath = onRowsPath && depth < ROWS_AT.length && ROWS_AT[depth] === k;
      out[k] = skeletonOf(v, found, depth + 1, onPath && depth + 1 === ROWS_AT.length ? 'json' : encoding, onPath);
    }
    return depth === PART_DEPTH ? { [PART]: chunks.push([[out], 0, 1, 'v8']) - 1 } : out;
  }
  return value;
}

/** A value JSON gives back as it is: a string, a finite number, a boolean, null, or an array or plain object of such. */
function jsonSafe(v: unknown): boolean {
  switch (typeof v) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(v);
    case 'object':
      if (v === null) return true;
      if (Array.isArray(v)) return v.every(jsonSafe);
      if (!isPlainObject(v)) return false;
      for (const k in v) if (!jsonSafe(v[k])) return false;
      return true;
    default: return false;
  }
}

/** Rows as JSON, once each value is one JSON gives back unchanged (Encoding). */
function jsonRows(rows: readonly unknown[]): Buffer {
  for (const row of rows) {
    if (!isPlainObject(row)) throw new Error('pack: a row is not a plain object');
    for (const k in row) if (!jsonSafe(row[k])) throw new Error(`pack: a row's ${k} is ${String(row[k])}, which JSON would not give back as it is`);
  }
  return Buffer.from(JSON.stringify(rows));
}

function rebuild(value: unknown, chunks: unknown[][], arrays: readonly SharedArray[], depth: number): unknown {
  if (depth <= MAX_DEPTH && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = rebuild(value[i], chunks, arrays, depth + 1);
  } else if (depth <= MAX_DEPTH && isPlainObject(value)) {
    const shared = value[ARRAY];
    if (typeof shared === 'number' && Object.keys(value).length === 1) return arrays[shared];
    const part = value[PART];
    if (typeof part === 'number' && Object.keys(value).length === 1) return rebuild(chunks[part][0], chunks, arrays, depth);
    const ref = value[CHUNKS];
    if (Array.isArray(ref) && Object.keys(value).length === 1) {
      const [first, count] = ref as [number, number];
      return chunks.slice(first, first + count).flat(1);
    }
    for (const k of Object.keys(value)) value[k] = rebuild(value[k], chunks, arrays, depth + 1);
  }
  return value;
}

/**
 * The snapshot's source as the analysis workers need it, from the main thread's snapshot of it. Left
 * out (the counts are the real data's):
 * - the market values (485,834 rows): tasks read them through the feature index, which comes built;
 * - every model rating but each player's latest (260,000 rows): tasks read no other (player facts,
 *   rated players);
 * - transfers without a fee, and loans (about 65,000 of 73,160): tasks read a player's latest paid
 *   permanent move only (the fee model's anchor); the fits that read the others run in training;
 * - matches and league memberships of seasons before the current one (about 60,000 and 2,500 rows):
 *   only the feature index and the fits read them; the snapshot takes the current season's leagues and
 *   cup participants from the current season's.
 * - every career step but each player's latest (about 62,000 of 94,750 rows): tasks read a player's
 *   current step (player facts, squads); his whole path is the main thread's (career_path);
 * - the attribute profiles (12,993 rows, 6.6 MB as JSON): only similar players reads them, on the
 *   main thread;
 * A worker's snapshot built from it has the same players, analysability, leagues, squads and external
 * ratings; its `ratings` hold one row per player, its `careers` one step per player (the latest, as the
 * main thread's snapshot has it) and its `transfersOfPlayer` the paid permanent moves.
 */
export function workerRows(snapshot: Snapshot, source: SnapshotSource): SnapshotSource {
  const latest: RatingRow[] = [];
  for (const list of snapshot.ratings.values()) if (list.length > 0) latest.push(list[list.length - 1]);
  const career_steps: CareerStepRow[] = [];
  for (const steps of snapshot.careers.values()) if (steps.length > 0) career_steps.push(steps[steps.length - 1]);
  const ratings = [...snapshot.externalRatings, ...snapshot.laterExternalRatings, ...latest];
  const transfers = source.world.transfers.filter(isPaidPermanent);
  const matches = source.world.matches.filter((m) => m.season === snapshot.currentSeason);
  const club_seasons = source.world.club_seasons.filter((cs) => cs.season === snapshot.currentSeason);
  return { ...source, world: { ...source.world, market_values: [], player_attributes: [], ratings, career_steps, transfers, matches, club_seasons } };
}

/**
 * The models as the analysis workers need them: each gradient-boosted model in its compiled form
 * (compiledForm: flat typed arrays, which the package shares between the workers, in place of the
 * tree lists each worker would hold and compile for itself); the rest as it is. One model is compiled
 * a turn of the event loop (those the main thread has not compiled yet, the rating model's update
 * folds, took a few tens of milliseconds together).
 */
export async function workerBundle(bundle: ModelBundle): Promise<ModelBundle> {
  const isGbm = (v: Record<string, unknown>) => v.kind === 'gbm' && Array.isArray(v.trees);
  const compiled = new Map<unknown, GbmModel>();
  const find = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(find);
    else if (isPlainObject(v)) {
      if (isGbm(v)) compiled.set(v, v as unknown as GbmModel);
      else Object.values(v).forEach(find);
    }
  };
  find(bundle);
  for (const model of compiled.values()) {
    await nextTurn();
    compiled.set(model, compiledForm(model));
  }
  // copies only the objects and arrays on the way to a model: the rest of the bundle is the main thread's own
  const walk = (v: unknown): unknown => {
    const model = compiled.get(v);
    if (model) return model;
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (!isPlainObject(v)) return v;
    const entries = Object.entries(v).map(([k, x]) => [k, walk(x)] as const);
    return entries.some(([k, x]) => x !== v[k]) ? Object.fromEntries(entries) : v;
  };
  return walk(bundle) as ModelBundle;
}

/** Packs the world and models, a slice at a time (see the header). */
export async function pack(source: SnapshotSource, bundle: ModelBundle, features: FeatureColumns): Promise<EnginePackage> {
  if (features.asOf !== source.asOf || features.dataVersion !== source.dataVersion) throw new Error('pack: the feature columns are of another snapshot');
  const found: Found = { chunks: [], arrays: [] };
  const skeleton = skeletonOf({ source, bundle, features } satisfies Packed, found, 0, 'v8', true);
  await nextTurn();
  const buffers: Buffer[] = [serialize(skeleton)];
  const encodings: Encoding[] = ['v8'];
  for (const [rows, from, to, encoding] of found.chunks) {
    await nextTurn();
    buffers.push(encoding === 'json' ? jsonRows(rows.slice(from, to)) : serialize(rows.slice(from, to)));
    encodings.push(encoding);
  }
  await nextTurn();
  let total = 0;
  const parts = buffers.map((b, i) => {
    const at = total;
    total += b.byteLength;
    return [at, b.byteLength, encodings[i]] as const;
  });
  const arrays = found.arrays.map((a) => {
    total = Math.ceil(total / 8) * 8; // a view's offset must be a multiple of its element size
    const at = total;
    total += a.byteLength;
    return [sharedTypeOf(a)!, at, a.length] as const;
  });
  const bytes = new SharedArrayBuffer(total);
  const view = new Uint8Array(bytes);
  // copied a few megabytes at a time: the first write to each page of the buffer costs (about 0.7 ms a megabyte)
  let sinceYield = 0;
  const copy = async (from: Uint8Array, at: number) => {
    if (sinceYield > COPY_SLICE_BYTES) {
      await nextTurn();
      sinceYield = 0;
    }
    view.set(from, at);
    sinceYield += from.byteLength;
  };
  for (const [i, b] of buffers.entries()) await copy(b, parts[i][0]);
  for (const [i, a] of found.arrays.entries()) {
    for (let at = 0; at < a.byteLength; at += COPY_SLICE_BYTES) {
      await copy(new Uint8Array(a.buffer, a.byteOffset + at, Math.min(COPY_SLICE_BYTES, a.byteLength - at)), arrays[i][1] + at);
    }
  }
  return { key: packageKey(source, bundle), bytes, parts, arrays };
}

/**
 * One copy of each string in the rows and in lists of strings: deserialize gives every row its own
 * copy of each string it holds, and ids, dates and codes repeat across hundreds of thousands of rows
 * (a player's id in his ratings, contracts, career, the feature index's list of players...). Values
 * are unchanged, only shared.
 */
function shareStrings(rows: unknown[], seen: Map<string, string>): void {
  const one = (v: string) => {
    const kept = seen.get(v);
    if (kept !== undefined) return kept;
    seen.set(v, v);
    return v;
  };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    // a list of ids (the feature index's players) holds the same strings as the rows
    if (typeof row === 'string') rows[i] = one(row);
    if (!isPlainObject(row)) continue;
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'string') row[k] = one(v);
      else if (isPlainObject(v)) for (const k2 in v) if (typeof v[k2] === 'string') v[k2] = one(v[k2]);
    }
  }
}

/** Bytes of the package's typed arrays that workers read in place. */
export function inPlaceBytes(pkg: EnginePackage): number {
  return pkg.arrays.reduce((sum, [type, , length]) => sum + length * SHARED_TYPES[type].BYTES_PER_ELEMENT, 0);
}

/** The rows and models of a package as packed (the snapshot is built from them: unpack). */
export function unpackSource(pkg: EnginePackage): Packed {
  // deserialize copies out of the shared memory: it reads a Buffer view of it without copying first
  const read = ([at, length, encoding]: readonly [number, number, Encoding]) => {
    const bytes = Buffer.from(pkg.bytes, at, length);
    return (encoding === 'json' ? JSON.parse(bytes.toString('utf8')) : deserialize(bytes)) as unknown;
  };
  const seen = new Map<string, string>();
  const chunks = pkg.parts.slice(1).map((p) => {
    const rows = read(p) as unknown[];
    shareStrings(rows, seen);
    return rows;
  });
  // (the union of the constructors takes an ArrayBuffer in TypeScript's types; each one takes a shared buffer too)
  const arrays = pkg.arrays.map(([type, at, length]) => new SHARED_TYPES[type](pkg.bytes as unknown as ArrayBuffer, at, length));
  return rebuild(read(pkg.parts[0]), chunks, arrays, 0) as Packed;
}

/**
 * The snapshot and models of a package, built as the main thread builds its own from the rows the
 * workers are sent (workerRows), with the main thread's feature index.
 */
export function unpack(pkg: EnginePackage): { snapshot: Snapshot; bundle: ModelBundle } {
  const { source, bundle, features } = unpackSource(pkg);
  const snapshot = snapshotOf(source);
  adoptFeatureColumns(snapshot, features);
  return { snapshot, bundle };
}
