import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

export type { RandomGenerator };

/** FNV-1a, 32 bits: turns a stable key (a player id) into a seed component. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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
