/** Wall and CPU time of repeated calls, and their quantiles, for the benches that print both. */
export interface Timing {
  wall: number[];
  cpu: number[];
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Runs `fn`, adding its wall and CPU milliseconds to `t`. */
export function timed<T>(t: Timing, fn: () => T): T {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const out = fn();
  t.wall.push(performance.now() - w0);
  const c = process.cpuUsage(c0);
  t.cpu.push((c.user + c.system) / 1000);
  return out;
}
