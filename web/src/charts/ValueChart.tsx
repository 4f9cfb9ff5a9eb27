import { linear, niceMax } from './scale';

export interface ValuePoint {
  readonly label: string;
  readonly value: number;
  /** The 80% range around the value, when the model gives one. */
  readonly low?: number;
  readonly high?: number;
}

const W = 460;
const H = 220;
const PAD = { left: 70, right: 20, top: 16, bottom: 34 };

/**
 * Values over time as points with their range drawn as a whisker, joined by a line; the axis starts
 * at zero so ranges compare honestly. The frame has a fixed aspect ratio (no layout shift).
 */
export function ValueChart({ points, format, title }: { points: readonly ValuePoint[]; format: (v: number) => string; title: string }) {
  const top = niceMax(Math.max(...points.map((p) => p.high ?? p.value)));
  const y = linear(0, top, H - PAD.bottom, PAD.top);
  const x = linear(0, Math.max(1, points.length - 1), PAD.left + 40, W - PAD.right - 40);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i)},${y(p.value)}`).join(' ');
  return (
    <svg class="chart value-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${points.map((p) => `${p.label} ${format(p.value)}`).join(', ')}`}>
      <title>{title}</title>
      {ticks.map((t) => (
        <g key={t} class="tick">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
          <text x={PAD.left - 6} y={y(t)} text-anchor="end" dominant-baseline="middle">
            {format(t)}
          </text>
        </g>
      ))}
      <path class="trend" d={path} />
      {points.map((p, i) => (
        <g key={p.label} class="point-group">
          {p.low !== undefined && p.high !== undefined && (
            <g class="range">
              <line x1={x(i)} x2={x(i)} y1={y(p.low)} y2={y(p.high)} />
              <line x1={x(i) - 8} x2={x(i) + 8} y1={y(p.low)} y2={y(p.low)} />
              <line x1={x(i) - 8} x2={x(i) + 8} y1={y(p.high)} y2={y(p.high)} />
            </g>
          )}
          <circle class="point" cx={x(i)} cy={y(p.value)} r={5} data-value={p.value} />
          <text class="value" x={x(i) + 10} y={y(p.value)} dominant-baseline="middle">
            {format(p.value)}
          </text>
          <text x={x(i)} y={H - PAD.bottom + 20} text-anchor="middle">
            {p.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
