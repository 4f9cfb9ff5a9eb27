import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { WORLD_TABLE_ORDER, type WorldData } from '../../domain/world.js';
import { WORLD_META_KEYS } from '../world-store.js';

/** The world served before the last update (or rollback), kept in the data folder for `data rollback`. */
export const previousFile = (dataDir: string): string => join(dataDir, 'previous-world.ndjson.gz');

/**
 * Writes one line per table (and one for the meta), gzipped, to a temporary file; the returned
 * function puts it in place (once the swap happened), `discard` drops it (nothing changed).
 */
export async function savePrevious(dataDir: string, world: WorldData, meta: Record<string, string>): Promise<{ keep(): void; discard(): void }> {
  mkdirSync(dataDir, { recursive: true });
  const file = previousFile(dataDir);
  const tmp = `${file}.tmp`;
  function* lines() {
    yield `${JSON.stringify({ meta: Object.fromEntries(WORLD_META_KEYS.filter((k) => meta[k] !== undefined).map((k) => [k, meta[k]])) })}\n`;
    for (const t of WORLD_TABLE_ORDER) yield `${JSON.stringify({ table: t, rows: world[t] })}\n`;
  }
  try {
    await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(tmp));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return { keep: () => renameSync(tmp, file), discard: () => rmSync(tmp, { force: true }) };
}

export async function loadPrevious(dataDir: string): Promise<{ world: WorldData; meta: Record<string, string> } | null> {
  const file = previousFile(dataDir);
  if (!existsSync(file)) return null;
  const world = {} as Record<string, unknown[]>;
  let meta: Record<string, string> = {};
  for await (const line of createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (!line) continue;
    const o = JSON.parse(line) as { meta?: Record<string, string>; table?: string; rows?: unknown[] };
    if (o.meta) meta = o.meta;
    else if (o.table) world[o.table] = o.rows ?? [];
  }
  for (const t of WORLD_TABLE_ORDER) world[t] ??= [];
  return { world: world as unknown as WorldData, meta };
}
