/**
 * Zips of the open dataset's layout for the update tests (test/cli/data-update.test.ts, the embedded
 * server; test/scale/data-update.test.ts, two instances on PostgreSQL): the importer's fixture, the
 * rows that do not parse left out, and enough generated players for the models to train on.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { REPO_ROOT } from './server-process.js';

export const FIXTURE = join(REPO_ROOT, 'test/fixtures/transfermarkt');
/** The fixture's rows that do not parse (it tests the importer's rejects): an update fails on them, so the base zip leaves them out. */
const UNPARSABLE: Record<string, number[]> = { clubs: [7, 9], players: [13, 14], transfers: [18, 19], player_valuations: [26, 27], games: [11], appearances: [11] };

export function tables(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(FIXTURE).filter((n) => n.endsWith('.csv'))) {
    const table = f.replace(/\.csv$/, '');
    const drop = new Set(UNPARSABLE[table] ?? []);
    out.set(table, readFileSync(join(FIXTURE, f), 'utf8').split('\n').filter((_, i) => !drop.has(i + 1)).join('\n'));
  }
  return out;
}

const POSITIONS = [['Goalkeeper', 'Goalkeeper'], ['Centre-Back', 'Defender'], ['Left-Back', 'Defender'], ['Central Midfield', 'Midfield'], ['Right Winger', 'Attack'], ['Centre-Forward', 'Attack']];
const CLUBS = [1001, 1002, 1003, 1004];

/**
 * The models need more than the fixture's handful of players to train on (the fee model 50 paid
 * transfers, the future model 200 player-seasons): 160 more players of the same layout, each with a
 * value every half year from 2016 and one paid move, made deterministically.
 */
export function withSquads(files: Map<string, string>): Map<string, string> {
  const out = new Map(files);
  const players: string[] = [];
  const values: string[] = [];
  const transfers: string[] = [];
  for (let i = 0; i < 160; i++) {
    const id = 5000 + i;
    const [sub, pos] = POSITIONS[i % POSITIONS.length];
    const from = CLUBS[i % 4];
    const to = CLUBS[(i + 1 + (i % 3)) % 4];
    const born = `${1992 + (i % 9)}-0${1 + (i % 9)}-1${i % 10}`;
    const scale = 1 + (i % 17);
    players.push(`${id},Gen${i},Player${i},Gen${i} Player${i},2023,${to},gen-${i},England,Leeds,England,${born},${sub},${pos},right,${170 + (i % 25)},2027-06-30 00:00:00,,,https://example.org/p/${id},GB1,Club,${scale * 1_000_000},${scale * 1_200_000}`);
    for (let y = 2016; y <= 2023; y++) {
      for (const md of ['01-15', '07-15']) {
        const growth = 1 + ((y - 2016) * ((i % 5) - 1)) / 10;
        values.push(`${id},${y}-${md},${Math.max(50_000, Math.round(scale * 500_000 * growth))},${y < 2020 ? from : to},GB1`);
      }
    }
    transfers.push(`${id},2019-0${7 + (i % 2)}-0${1 + (i % 9)},19/20,${from},${to},From,To,${scale * 450_000 + (i % 7) * 100_000},${scale * 500_000},Gen${i} Player${i}`);
  }
  const add = (t: string, rows: string[]) => out.set(t, `${out.get(t)!.trimEnd()}\n${rows.join('\n')}\n`);
  add('players', players);
  add('player_valuations', values);
  add('transfers', transfers);
  return out;
}

export function zip(files: Map<string, string>, folder = ''): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [t, text] of files) z.addBuffer(Buffer.from(text), `${folder}${t}.csv`);
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/** A player's raised value in the update that follows the base data. */
export const RAISED = 95_000_000;

/** The base data (tables in one folder of the zip, as the dataset ships) and the update that follows: Adam Archer's value raised, an appearance of 77 minutes added. */
export async function baseAndNext(): Promise<{ base: Map<string, string>; next: Map<string, string>; baseZip: Buffer; nextZip: Buffer }> {
  const base = withSquads(tables());
  const next = new Map(base);
  next.set('player_valuations', `${base.get('player_valuations')!.trimEnd()}\n10,2024-05-01,${RAISED},1001,GB1\n`);
  next.set('appearances', `${base.get('appearances')!.trimEnd()}\n3_10,3,10,1001,1001,2023-08-26,Adam Archer,GB1,0,0,2,1,77\n`);
  return { base, next, baseZip: await zip(base, 'transfermarkt-datasets/'), nextZip: await zip(next) };
}

/** Serves the given paths' bodies on 127.0.0.1 (404 otherwise); returns the URL of a path and a close. */
export async function serveZips(served: Record<string, Buffer>, port: number): Promise<{ url(path: string): string; close(): void }> {
  const { createServer } = await import('node:http');
  const http = createServer((req, res) => {
    const body = served[req.url ?? ''];
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => http.listen(port, '127.0.0.1', () => r()));
  return { url: (p) => `http://127.0.0.1:${port}${p}`, close: () => http.close() };
}
