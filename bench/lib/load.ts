/** What the load benches keep of an autocannon run, and how turns of one measurement combine. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** Turns of one measurement: mean rate, median of the p50s, worst p99, summed counts. */
export function combine(turns: Figures[]): Figures {
  const sum = (f: (x: Figures) => number) => turns.reduce((a, t) => a + f(t), 0);
  const p50s = turns.map((t) => t.p50).sort((a, b) => a - b);
  return {
    rps: sum((t) => t.rps) / turns.length,
    p50: p50s[Math.floor(p50s.length / 2)],
    p99: Math.max(...turns.map((t) => t.p99)),
    requests: sum((t) => t.requests),
    non2xx: sum((t) => t.non2xx),
    errors: sum((t) => t.errors),
  };
}

/** An autocannon result as Figures. */
export function figuresOf(r: { requests: { total: number }; start: Date; finish: Date; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number }): Figures {
  return {
    rps: r.requests.total / ((r.finish.getTime() - r.start.getTime()) / 1000),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}
