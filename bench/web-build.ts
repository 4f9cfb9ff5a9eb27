/**
 * Touchline Studio's build as `npm install` runs it (`npm run build:web`, through `prepare`): wall time
 * of each build, and the size of every file it writes, raw and gzipped (what a browser downloads).
 *
 * With --candidates it also builds the same two charts (market value over time with two 80% ranges,
 * and six category bars) with each charting library we weighed, alone on a page, and prints what
 * each adds to the build: the numbers behind the choice in docs/design-notes.md's stack section. A candidate
 * that is not installed is skipped (`npm install --no-save uplot echarts` to measure them all).
 *
 * Usage: npx tsx bench/web-build.ts [--runs 3] [--candidates]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../src/http/web-app.js';
import { REPO_ROOT } from '../test/helpers/server-process.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, candidates: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs >= 1 && runs <= 10)) throw new Error('--runs must be an integer in [1, 10]');

const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));

/** Wall times of `runs` runs of `build`, sorted. */
function timeRuns(build: () => void): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    build();
    times.push((performance.now() - t0) / 1000);
  }
  return times.sort((a, b) => a - b);
}
const summary = (times: number[]) => `min ${times[0].toFixed(1)} s, median ${times[Math.floor(times.length / 2)].toFixed(1)} s, max ${times[times.length - 1].toFixed(1)} s`;

/** Raw and gzipped bytes of the files under `dir` whose name matches `only`. */
function sizes(dir: string, only: RegExp = /./): { raw: number; gz: number } {
  let raw = 0;
  let gz = 0;
  for (const file of walk(dir)) {
    if (!only.test(file)) continue;
    const body = readFileSync(file);
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gz };
}
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

const times = timeRuns(() => execFileSync('npm', ['run', '--silent', 'build:web'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] }));
console.log(`build:web wall time over ${runs} runs: ${summary(times)}`);

let raw = 0;
let gz = 0;
for (const file of walk(WEB_DIST).sort()) {
  const body = readFileSync(file);
  const z = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += z;
  console.log(`${relative(WEB_DIST, file).padEnd(28)} ${(body.length / 1024).toFixed(1).padStart(7)} KiB  gzip ${(z / 1024).toFixed(1).padStart(6)} KiB`);
}
console.log(`${'total'.padEnd(28)} ${(raw / 1024).toFixed(1).padStart(7)} KiB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KiB`);

if (values.candidates) {
  // The same data for every candidate: a value history, two modelled points with 80% ranges, six bars.
  const data = `
const history = Array.from({ length: 12 }, (_, i) => ({ t: 2020 + i / 2, v: 5e6 + i * 1.2e6 }));
const model = [{ t: 2026, v: 2e7, lo: 1.5e7, hi: 2.6e7 }, { t: 2029, v: 2.4e7, lo: 1.2e7, hi: 3.9e7 }];
const bars = ['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline'].map((c, i) => ({ c, p: [0.05, 0.1, 0.25, 0.3, 0.2, 0.1][i] }));
const box = () => document.body.appendChild(document.createElement('div'));
`;
  const candidates: Record<string, { pkg: string | null; code: string }> = {
    'none (data only)': { pkg: null, code: `${data}\nbox().textContent = JSON.stringify([history, model, bars]);` },
    '@observablehq/plot': {
      pkg: '@observablehq/plot',
      code: `import * as Plot from '@observablehq/plot';${data}
box().append(Plot.plot({ width: 460, height: 230, y: { zero: true }, marks: [
  Plot.line(history, { x: 't', y: 'v' }), Plot.dot(history, { x: 't', y: 'v', r: 2.5 }),
  Plot.ruleX(model, { x: 't', y1: 'lo', y2: 'hi' }), Plot.dot(model, { x: 't', y: 'v', r: 5, fill: 'currentColor' }),
  Plot.text(model, { x: 't', y: 'v', text: (d) => String(d.v), dx: 8, textAnchor: 'start' }) ] }));
box().append(Plot.plot({ width: 460, marginLeft: 150, x: { domain: [0, 1] }, marks: [Plot.barX(bars, { x: 'p', y: 'c', sort: null })] }));`,
    },
    uplot: {
      pkg: 'uplot',
      code: `import uPlot from 'uplot'; import 'uplot/dist/uPlot.min.css';${data}
const xs = [...history.map((d) => d.t), ...model.map((d) => d.t)];
const pad = (a, b) => [...a.map(() => null), ...b];
new uPlot({ width: 460, height: 230, scales: { x: { time: false } }, series: [{}, { label: 'value' }, { label: 'model', points: { size: 8 } }, { label: '80% low' }, { label: '80% high' }] },
  [xs, [...history.map((d) => d.v), ...model.map(() => null)], pad(history, model.map((d) => d.v)), pad(history, model.map((d) => d.lo)), pad(history, model.map((d) => d.hi))], box());
new uPlot({ width: 460, height: 200, scales: { x: { time: false } }, series: [{}, { label: 'probability', paths: uPlot.paths.bars({ size: [0.6] }) }] }, [bars.map((_, i) => i), bars.map((b) => b.p)], box());`,
    },
    'echarts (core, SVG renderer)': {
      pkg: 'echarts',
      code: `import * as echarts from 'echarts/core'; import { LineChart, BarChart, ScatterChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components'; import { SVGRenderer } from 'echarts/renderers';
echarts.use([LineChart, BarChart, ScatterChart, GridComponent, SVGRenderer]);${data}
echarts.init(box(), null, { renderer: 'svg', width: 460, height: 230 }).setOption({ xAxis: { type: 'value', min: 2020 }, yAxis: { type: 'value' }, series: [
  { type: 'line', data: history.map((d) => [d.t, d.v]) }, { type: 'scatter', data: model.map((d) => [d.t, d.v]) },
  ...model.map((d) => ({ type: 'line', data: [[d.t, d.lo], [d.t, d.hi]], symbol: 'none' })) ] });
echarts.init(box(), null, { renderer: 'svg', width: 460, height: 200 }).setOption({ grid: { left: 150 }, xAxis: { type: 'value', max: 1 }, yAxis: { type: 'category', data: bars.map((b) => b.c) }, series: [{ type: 'bar', data: bars.map((b) => b.p) }] });`,
    },
  };
  const root = join(REPO_ROOT, '.cache/web-candidates');
  console.log(`\ncharting candidates, the two charts alone on a page (vite build, ${runs} runs each):`);
  for (const [name, c] of Object.entries(candidates)) {
    if (c.pkg && !existsSync(join(REPO_ROOT, 'node_modules', c.pkg, 'package.json'))) {
      console.log(`${name.padEnd(30)} not installed, skipped`);
      continue;
    }
    const dir = join(root, name.replace(/[^a-z]+/gi, '-'));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>\n');
    writeFileSync(join(dir, 'main.js'), c.code);
    writeFileSync(join(dir, 'vite.config.mjs'), `export default { root: ${JSON.stringify(dir)}, logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } } };\n`);
    const version = c.pkg ? (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', c.pkg, 'package.json'), 'utf8')) as { version: string }).version : '';
    const t = timeRuns(() => execFileSync(join(REPO_ROOT, 'node_modules/.bin/vite'), ['build', '--config', join(dir, 'vite.config.mjs')], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] }));
    const js = sizes(join(dir, 'dist'), /\.js$/);
    const css = sizes(join(dir, 'dist'), /\.css$/);
    console.log(`${`${name} ${version}`.padEnd(36)} JS ${kib(js.raw).padStart(10)}  gzip ${kib(js.gz).padStart(9)}  CSS gzip ${kib(css.gz).padStart(7)}  build ${summary(t)}`);
  }
}
