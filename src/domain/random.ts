/**
 * Seeded randomness for the whole service, on pure-rand's xoroshiro128+: everything reproducible
 * goes through here (no Math.random, no clock). Three generators, each the exact stream its users
 * were fitted and tested with:
 *  - Rng: the models' (fitting, resampling, fuzz): 53-bit uniforms, forks by jumping ahead;
 *  - seededGenerator / uniform01: the simulations' raw stream, one per (seed, key) for common
 *    random numbers;
 *  - StreamRng: the demo world's named streams.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { hashString } from './hash.js';

export type { RandomGenerator };

export class Rng {
  private readonly gen: JumpableRandomGenerator;

  constructor(gen: JumpableRandomGenerator) {
    this.gen = gen;
  }

  /** Uniform in [0, 1), 53 bits. */
  uniform(): number {
    return uniformFloat64(this.gen);
  }

  /** Uniform integer in [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.gen, from, to);
  }

  /** Normal deviate (Box-Muller; one value per call so the state alone determines the stream). */
  normal(mean = 0, sd = 1): number {
    let u = this.uniform();
    while (u === 0) u = this.uniform();
    return normalOf(u, this.uniform(), mean, sd);
  }

  /** Poisson deviate: multiplication method for small means, PTRS (Hörmann 1993) above. */
  poisson(lambda: number): number {
    if (!(lambda >= 0) || !Number.isFinite(lambda)) throw new RangeError(`poisson: bad mean ${lambda}`);
    if (lambda === 0) return 0;
    if (lambda < 10) return knuthPoisson(lambda, () => this.uniform());
    const slam = Math.sqrt(lambda);
    const loglam = Math.log(lambda);
    const b = 0.931 + 2.53 * slam;
    const a = -0.059 + 0.02483 * b;
    const invalpha = 1.1239 + 1.1328 / (b - 3.4);
    const vr = 0.9277 - 3.6224 / (b - 2);
    while (true) {
      const u = this.uniform() - 0.5;
      const v = this.uniform();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (Math.log(v) + Math.log(invalpha) - Math.log(a / (us * us) + b) <= -lambda + k * loglam - logGamma(k + 1)) {
        return k;
      }
    }
  }

  /** Fisher-Yates shuffle in place; returns the same array. */
  shuffle<A extends { length: number; [i: number]: unknown }>(array: A): A {
    for (let i = array.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = array[i];
      array[i] = array[j];
      array[j] = t;
    }
    return array;
  }

  /** `k` distinct indices from [0, n), in ascending order. */
  sampleIndices(n: number, k: number): Uint32Array {
    if (k > n || k < 0) throw new RangeError(`sampleIndices: cannot draw ${k} of ${n}`);
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    for (let i = 0; i < k; i++) {
      const j = this.int(i, n - 1);
      const t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    return all.slice(0, k).sort();
  }

  /** An independent stream (this one jumps ahead 2^64 steps, the fork keeps the old position). */
  fork(): Rng {
    const child = this.gen.clone();
    this.gen.jump();
    return new Rng(child);
  }

  /** Copy with the same position in the stream. */
  clone(): Rng {
    return new Rng(this.gen.clone());
  }

  /** Serialisable position in the stream (see `rngFromState`). */
  state(): number[] {
    return [...this.gen.getState()];
  }
}

export function createRng(seed: number): Rng {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  return new Rng(xoroshiro128plus(seed | 0));
}

export function rngFromState(state: readonly number[]): Rng {
  return new Rng(xoroshiro128plusFromState(state));
}

/** Knuth's multiplication method: uniforms are drawn until their product falls to e^-lambda. */
function knuthPoisson(lambda: number, uniform: () => number): number {
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = uniform();
  while (p > limit) {
    k++;
    p *= uniform();
  }
  return k;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9), accurate to ~1e-15 relative. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let s = c[0];
  for (let i = 1; i < 9; i++) s += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(s);
}

/** murmur3 finaliser: neighbouring seeds (1, 2, 3) must not give neighbouring xoroshiro states. */
function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** A seeded generator; `key` gives an independent stream per entity for common random numbers. */
export function seededGenerator(seed: number, key?: string): RandomGenerator {
  const s = key === undefined ? mix32(seed) : mix32(mix32(seed) ^ hashString(key));
  const rng = xoroshiro128plus(s);
  // the first outputs of a freshly seeded xoroshiro still show the seed's bit pattern
  for (let i = 0; i < 8; i++) rng.next();
  return rng;
}

const TWO_POW_32 = 4294967296;

/** Uniform in [0, 1) from one 32-bit draw; resolution 2^-32 is ample for inverting small CDF tables. */
export function uniform01(rng: RandomGenerator): number {
  return (rng.next() >>> 0) / TWO_POW_32;
}

/**
 * Box-Muller, the one normal draw: a normal deviate from two uniforms, u in (0, 1] and v in [0, 1).
 * Each generator feeds it its own uniforms, so every stream stays the one its users were fitted with.
 */
export function normalOf(u: number, v: number, mean = 0, sd = 1): number {
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Box-Muller's second, independent deviate of the same two uniforms (standard normal). */
export function secondNormalOf(u: number, v: number): number {
  return Math.sqrt(-2 * Math.log(u)) * Math.sin(2 * Math.PI * v);
}

/**
 * The demo world's generator: named streams, and a normal that keeps Box-Muller's second value
 * (so its draws are not Rng's; the demo world's rows depend on exactly this stream).
 */
export class StreamRng {
  private readonly g: RandomGenerator;
  private spare: number | null = null;

  constructor(seed: number) {
    this.g = xoroshiro128plus(seed | 0);
  }

  /** An independent stream per subsystem, so a change in one part leaves the others' draws alone. */
  static stream(seed: number, name: string): StreamRng {
    return new StreamRng(hashString(`${seed}|${name}`));
  }

  next(): number {
    return uniformFloat64(this.g);
  }

  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  uniform(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  normal(mean = 0, sd = 1): number {
    if (this.spare !== null) {
      const z = this.spare;
      this.spare = null;
      return mean + sd * z;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    this.spare = secondNormalOf(u, v);
    return normalOf(u, v, mean, sd);
  }

  /** Knuth's method: fine for the small means of football scores. */
  poisson(lambda: number): number {
    return knuthPoisson(lambda, () => this.next());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      x -= weights[i];
      if (x < 0) return items[i];
    }
    return items[items.length - 1];
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}
