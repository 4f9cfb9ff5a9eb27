/**
 * The /docs page's weight: every file a browser fetches to show it (the HTML, what it links, the
 * OpenAPI document it loads), as bytes over the wire (headers and body; the server does not
 * compress) and gzipped for comparison. With --browser, the time headless Chromium takes from
 * navigation to the first operation on screen, median of N loads (wall clock: quote it "under
 * load" unless `uptime` shows a load below 2).
 *
 * The app is built in-process with no data (the page and the document need none).
 * Usage: npx tsx bench/docs-page.ts [--browser] [--runs 5]
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildApp } from '../src/app.js';
import { documentOnlyDeps } from '../web/scripts/api-types.js';

const { values } = parseArgs({ options: { browser: { type: 'boolean', default: false }, runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs >= 1 && runs <= 20)) throw new Error('--runs must be an integer in [1, 20]');

interface Fetched { path: string; status: number; headerBytes: number; body: Buffer; location?: string }

function fetchRaw(base: string, path: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // Status line and headers as sent: rawHeaders holds names and values in order.
        let headerBytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2) headerBytes += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
        resolve({ path, status: res.statusCode ?? 0, headerBytes, body: Buffer.concat(chunks), location: res.headers.location });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const app = await buildApp(documentOnlyDeps());
const base = await app.listen({ host: '127.0.0.1', port: 0 });
try {
  const files: Fetched[] = [];
  let page = await fetchRaw(base, '/docs');
  files.push(page);
  if (page.location) files.push((page = await fetchRaw(base, new URL(page.location, `${base}/docs`).pathname)));
  const html = page.body.toString('utf8');
  const linked = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], `${base}/docs/`).pathname);
  // The initializer loads the document itself, from the same origin.
  for (const path of [...new Set(linked), '/docs/json']) files.push(await fetchRaw(base, path));

  let wire = 0;
  let gz = 0;
  for (const f of files) {
    const g = gzipSync(f.body).length;
    wire += f.headerBytes + f.body.length;
    gz += f.headerBytes + g;
    console.log(`${String(f.status).padEnd(4)}${f.path.padEnd(46)}${String(f.body.length).padStart(9)} B body${String(g).padStart(9)} B gzipped`);
  }
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`/docs: ${files.length} requests, ${kib(wire)} over the wire (headers included, uncompressed); ${kib(gz)} if gzipped`);

  if (values.browser) {
    const pw = (await import('playwright-core')) as unknown as {
      chromium: { launch(o: object): Promise<{ newPage(): Promise<PageLike>; close(): Promise<void> }> };
    };
    interface PageLike {
      goto(url: string, o: object): Promise<unknown>;
      locator(s: string): { first(): { waitFor(o: object): Promise<void> } };
      close(): Promise<void>;
    }
    const browser = await pw.chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const times: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const p = await browser.newPage();
        const t0 = performance.now();
        await p.goto(`${base}/docs`, { waitUntil: 'commit' });
        await p.locator('.opblock').first().waitFor({ state: 'visible', timeout: 60_000 });
        times.push(performance.now() - t0);
        await p.close();
      }
    } finally {
      await browser.close();
    }
    times.sort((a, b) => a - b);
    console.log(`navigation to first operation on screen, ${runs} loads (cold cache each): min ${times[0].toFixed(0)} ms, median ${times[Math.floor(runs / 2)].toFixed(0)} ms, max ${times[runs - 1].toFixed(0)} ms`);
  }
} finally {
  await app.close();
}
