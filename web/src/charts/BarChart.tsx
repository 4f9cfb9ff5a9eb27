import { PlotFigure } from './PlotFigure';

export interface Bar {
  readonly label: string;
  readonly value: number;
}

const ROW = 28;

/**
 * Horizontal bars for a few labelled values (e.g. the six category probabilities), each with its
 * value; `highlight` names the bar drawn in the accent colour. The height follows the number of bars.
 */
export function BarChart({ bars, max, format, title, highlight }: { bars: readonly Bar[]; max: number; format: (v: number) => string; title: string; highlight?: string }) {
  const h = bars.length * ROW + 8;
  const label = `${title}: ${bars.map((b) => `${b.label} ${format(b.value)}`).join(', ')}`;
  return (
    <PlotFigure
      class="bar-chart"
      height={h}
      label={label}
      signature={JSON.stringify([bars, max, highlight, label])}
      draw={(Plot, width) =>
        Plot.plot({
          width,
          height: h,
          marginLeft: 150,
          marginRight: 50,
          marginTop: 4,
          marginBottom: 4,
          x: { domain: [0, max], axis: null },
          y: { domain: bars.map((b) => b.label), label: null, tickSize: 0, padding: 0.3 },
          marks: [
            Plot.barX(bars, { x: 'value', y: 'label', className: 'bars', fill: (b: Bar) => (b.label === highlight ? '#0b6e4f' : '#7aa5c2'), rx: 3 }),
            Plot.text(bars, { x: 'value', y: 'label', text: (b: Bar) => format(b.value), dx: 6, textAnchor: 'start', className: 'values' }),
          ],
        })
      }
    />
  );
}
