import { linear, niceMax } from './scale';

export interface ValuePoint {
  /** Time in fractional years (2024.5 is mid-2024). */
  readonly t: number;
  readonly value: number;
  /** The 80% range around the value, when a model gives one. */
  readonly low?: number;
  readonly high?: number;
  /** Named points (the model's) are labelled with their value; history points are not. */
  readonly label?: string;
}

const W = 460;
const H = 230;
const PAD = { left: 62, right: 64, top: 16, bottom: 28 };

/** 2024-06-30 -> 2024.49 */
export function yearFraction(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return y + ((m - 1) * 30.44 + (d - 1)) / 365.25;
}

/**
 * Market value over time (a solid line of points) and the model's values (points with their 80%
 * range as whiskers, joined by a dashed line); the axis starts at zero so ranges compare honestly.
 * The frame has a fixed aspect ratio (no layout shift).
 */
export function ValueChart({ history, model, format, title }: { history: readonly ValuePoint[]; model: readonly ValuePoint[]; format: (v: number) => string; title: string }) {
  const all = [...history, ...model];
  const top = niceMax(Math.max(...all.map((p) => p.high ?? p.value)));
  const t0 = Math.floor(Math.min(...all.map((p) => p.t)));
  const t1 = Math.ceil(Math.max(...all.map((p) => p.t)));
  const x = linear(t0, t1, PAD.left, W - PAD.right);
  const y = linear(0, top, H - PAD.bottom, PAD.top);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const step = Math.max(1, Math.ceil((t1 - t0) / 6));
  const xTicks: number[] = [];
  for (let t = t0; t <= t1; t += step) xTicks.push(t);
  const line = (pts: readonly ValuePoint[]) => pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const modelPath = [...history.slice(-1), ...model];
  return (
    <svg class="chart value-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${model.map((p) => `${p.label ?? ''} ${format(p.value)}`).join(', ')}`}>
      <title>{title}</title>
      {yTicks.map((v) => (
        <g key={`y${v}`} class="tick">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
          <text x={PAD.left - 6} y={y(v)} text-anchor="end" dominant-baseline="middle">
            {format(v)}
          </text>
        </g>
      ))}
      {xTicks.map((t) => (
        <text key={`x${t}`} class="tick-x" x={x(t)} y={H - PAD.bottom + 18} text-anchor="middle">
          {t}
        </text>
      ))}
      {history.length > 1 && <path class="history" d={line(history)} />}
      {modelPath.length > 1 && <path class="trend" d={line(modelPath)} />}
      {history.map((p) => (
        <circle key={`h${p.t}`} class="point history-point" cx={x(p.t)} cy={y(p.value)} r={2.5} data-value={p.value} />
      ))}
      {model.map((p) => (
        <g key={`m${p.t}`} class="point-group">
          {p.low !== undefined && p.high !== undefined && (
            <g class="range">
              <line x1={x(p.t)} x2={x(p.t)} y1={y(p.low)} y2={y(p.high)} />
              <line x1={x(p.t) - 6} x2={x(p.t) + 6} y1={y(p.low)} y2={y(p.low)} />
              <line x1={x(p.t) - 6} x2={x(p.t) + 6} y1={y(p.high)} y2={y(p.high)} />
            </g>
          )}
          <circle class="point model-point" cx={x(p.t)} cy={y(p.value)} r={5} data-value={p.value} />
          <text class="value" x={x(p.t) + 9} y={y(p.value)} dominant-baseline="middle">
            {format(p.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}
