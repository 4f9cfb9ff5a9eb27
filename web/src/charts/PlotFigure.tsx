import { useEffect, useRef, useState } from 'preact/hooks';

type PlotModule = typeof import('./plot-marks');
let plot: Promise<PlotModule> | null = null;
/** Observable Plot is fetched with the first chart, so pages without a chart never download it. */
export const loadPlot = (): Promise<PlotModule> => (plot ??= import('./plot-marks'));

/**
 * A box of the chart's height, held before Plot has loaded (no layout shift), into which `draw`
 * renders at the box's width: text keeps its size on a phone instead of shrinking with a scaled
 * drawing. `signature` names what is drawn: the chart is redrawn when it or the width changes.
 */
export function PlotFigure({ draw, signature, height, class: kind, label }: { draw: (Plot: PlotModule, width: number) => Element; signature: string; height: number; class: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (width <= 0) return;
    let live = true;
    loadPlot().then(
      (Plot) => {
        if (!live || !host.current) return;
        const figure = draw(Plot, width);
        // Plot puts a <style> element in each chart; the page's CSP (style-src 'self') refuses inline
        // styles, so it goes before the chart is attached and styles.css carries its few rules.
        for (const s of figure.querySelectorAll('style')) s.remove();
        figure.classList.add('chart', kind);
        // One image with one name for a screen reader, rather than every tick and mark. Plot names
        // its marks' groups with aria-label, which a role-less <g> may not carry (axe
        // aria-prohibited-attr): the name moves to data-mark, where styles.css finds it.
        for (const el of figure.querySelectorAll('[aria-label]')) {
          el.setAttribute('data-mark', el.getAttribute('aria-label') ?? '');
          el.removeAttribute('aria-label');
        }
        figure.setAttribute('role', 'img');
        figure.setAttribute('aria-label', label);
        host.current.replaceChildren(figure);
        setFailed(false);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [signature, width]);
  return (
    <div class="chart-box" style={{ height: `${height}px` }}>
      <div class="chart-host" ref={host} />
      {failed && (
        <p class="error" role="alert">
          The chart could not be drawn; reload the page to try again.
        </p>
      )}
    </div>
  );
}
