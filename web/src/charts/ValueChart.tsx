import { PlotFigure } from './PlotFigure';
import { trendPath, valueTop, yearSpan, yearTicks, type ValuePoint } from './series';

export { yearFraction, type ValuePoint } from './series';

const H = 230;
const CAP = 0.12;

/**
 * Market value over time (a line of points) and the model's values (points with their 80% range as
 * whiskers, joined to the last market value by a dashed line). The value axis starts at zero so
 * ranges compare honestly.
 */
export function ValueChart({ history, model, format, title }: { history: readonly ValuePoint[]; model: readonly ValuePoint[]; format: (v: number) => string; title: string }) {
  const all = [...history, ...model];
  const span = yearSpan(all);
  const ranged = model.filter((p) => p.low !== undefined && p.high !== undefined);
  const label = `${title}: ${model.map((p) => `${p.label ?? p.t} ${format(p.value)}${p.low !== undefined && p.high !== undefined ? ` (80% ${format(p.low)} to ${format(p.high)})` : ''}`).join('; ')}${history.length ? `; ${history.length} market values from ${format(history[0].value)} to ${format(history[history.length - 1].value)}` : ''}`;
  return (
    <PlotFigure
      class="value-chart"
      height={H}
      label={label}
      signature={JSON.stringify([all, label])}
      draw={(Plot, width) =>
        Plot.plot({
          width,
          height: H,
          marginLeft: 62,
          marginRight: 70,
          marginTop: 16,
          marginBottom: 28,
          x: { domain: span, ticks: yearTicks(span), tickFormat: 'd', label: null },
          y: { domain: [0, valueTop(all)], nice: true, grid: true, ticks: 4, tickFormat: format, label: null },
          marks: [
            Plot.ruleY([0], { className: 'baseline' }),
            Plot.line(history, { x: 't', y: 'value', className: 'history' }),
            Plot.dot(history, { x: 't', y: 'value', r: 2.5, className: 'history-points' }),
            Plot.line(trendPath(history, model), { x: 't', y: 'value', className: 'trend' }),
            Plot.ruleX(ranged, { x: 't', y1: 'low', y2: 'high', className: 'range' }),
            // Whisker caps a fixed width in years either side of the point.
            Plot.ruleY(ranged, { y: 'low', x1: (p: ValuePoint) => p.t - CAP, x2: (p: ValuePoint) => p.t + CAP, className: 'range-cap' }),
            Plot.ruleY(ranged, { y: 'high', x1: (p: ValuePoint) => p.t - CAP, x2: (p: ValuePoint) => p.t + CAP, className: 'range-cap' }),
            Plot.dot(model, { x: 't', y: 'value', r: 5, className: 'model-points' }),
            Plot.text(model, { x: 't', y: 'value', text: (p: ValuePoint) => format(p.value), dx: 9, textAnchor: 'start', className: 'values' }),
          ],
        })
      }
    />
  );
}
