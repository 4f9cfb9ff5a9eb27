import type { WorldData } from '../../domain/world.js';
import type { DemoWorldOptions } from './model.js';
import { DemoWorld } from './world.js';

export { DEMO_SEASONS, type DemoWorldOptions } from './model.js';

/**
 * The synthetic demo world: several leagues with ten seasons of history up to `asOf`, as rows of the
 * world tables. Pure and deterministic: the same seed and as-of date give deep-equal output.
 */
export function generateDemoWorld(options: DemoWorldOptions): WorldData {
  return new DemoWorld(options).generate();
}
