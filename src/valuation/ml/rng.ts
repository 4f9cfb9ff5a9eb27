/**
 * Seeded randomness shared by the whole project: a thin wrapper over pure-rand's xoroshiro128+.
 * Everything reproducible goes through here (no Math.random, no clock).
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';

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
    const v = this.uniform();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Poisson deviate: multiplication method for small means, PTRS (Hörmann 1993) above. */
  poisson(lambda: number): number {
    if (!(lambda >= 0) || !Number.isFinite(lambda)) throw new RangeError(`poisson: bad mean ${lambda}`);
    if (lambda === 0) return 0;
    if (lambda < 10) {
      const limit = Math.exp(-lambda);
      let k = 0;
      let p = this.uniform();
      while (p > limit) {
        k++;
        p *= this.uniform();
      }
      return k;
    }
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
