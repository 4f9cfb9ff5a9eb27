import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
const dir = '/tmp/engine-probe/prof2';
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', 'bench/lib/engine-server.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
let buf = '';
const ready: any = await new Promise((res) => child.stdout.on('data', (d) => { buf += d; const m = /READY (.*)\n/.exec(buf); if (m) res(JSON.parse(m[1])); }));
await new Promise((r) => setTimeout(r, 15000));
let s = 7; const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
const pairs = Array.from({ length: 20000 }, () => ({ player_id: ready.analysable[Math.floor(rnd() * ready.analysable.length)], club_id: ready.clubs[Math.floor(rnd() * ready.clubs.length)] }));
let i = 0;
const r = await autocannon({ url: `${ready.url}/v1/get_roi_analysis`, method: 'POST', connections: 8, duration: 10, headers: { 'x-api-key': ready.key, 'content-type': 'application/json' },
  requests: [{ setupRequest: (req: any) => ({ ...req, body: JSON.stringify(pairs[i++]) }) }] });
console.log('roi req/s', r.requests.average, 'non2xx', r.non2xx);
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const times: number[] = []; let t = profile.startTime; for (const d of profile.timeDeltas) { t += d; times.push(t); }
  const endT = times[times.length - 1];
  const self = new Map<string, number>(); let total = 0, idle = 0;
  profile.samples.forEach((sm: number, k: number) => {
    if (times[k] < endT - 10.5e6 || times[k] > endT - 0.5e6) return;
    const c = byId.get(sm).callFrame; const name = `${c.functionName || '(anon)'} ${c.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${c.lineNumber + 1}`;
    total++; if (c.functionName === '(idle)') idle++;
    self.set(name, (self.get(name) ?? 0) + 1);
  });
  if (total < 1000) continue;
  console.log(`\n${f}: samples ${total}, idle ${(100 * idle / total).toFixed(0)}%`);
  for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(((100 * n) / total).toFixed(1).padStart(5), name);
}
