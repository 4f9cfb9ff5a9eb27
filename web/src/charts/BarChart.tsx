import { linear } from './scale';

export interface Bar {
  readonly label: string;
  readonly value: number;
}

const ROW = 28;
const LABEL_W = 150;
const W = 460;

/**
 * Horizontal bars for a few labelled values (e.g. the six category probabilities). Its height is
 * fixed by the number of bars, so the page does not move when the data arrives.
 */
export function BarChart({ bars, max, format, title, highlight }: { bars: readonly Bar[]; max: number; format: (v: number) => string; title: string; highlight?: string }) {
  const x = linear(0, max, 0, W - LABEL_W - 50);
  const h = bars.length * ROW;
  return (
    <svg class="chart bar-chart" viewBox={`0 0 ${W} ${h}`} role="img" aria-label={`${title}: ${bars.map((b) => `${b.label} ${format(b.value)}`).join(', ')}`}>
      <title>{title}</title>
      {bars.map((b, i) => (
        <g key={b.label} transform={`translate(0 ${i * ROW})`} class={b.label === highlight ? 'bar highlight' : 'bar'}>
          <text x={LABEL_W - 8} y={ROW / 2} text-anchor="end" dominant-baseline="middle">
            {b.label}
          </text>
          <rect x={LABEL_W} y={5} width={Math.max(1, x(b.value))} height={ROW - 10} rx={3} data-value={b.value} />
          <text x={LABEL_W + Math.max(1, x(b.value)) + 6} y={ROW / 2} dominant-baseline="middle" class="value">
            {format(b.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}
