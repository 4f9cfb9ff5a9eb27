import { createWriteStream, existsSync, mkdirSync, openSync, readSync, closeSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** Bad input for an update: the CLI prints the message alone, on one line, and exits 1. */
export class UpdateError extends Error {}

export interface SourceProgress {
  /** Bytes done of a total (null when the server does not say), for a bar. */
  bytes(phase: 'download' | 'unzip', done: number, total: number | null): void;
  info(line: string): void;
}

/** Writes go through here so a test can make the disk fill (ENOSPC) at the seam where the update writes. */
export type WriteHook = (file: string, bytes: number) => void;

/** Counts bytes on their way to disk; the hook may throw (a full disk), which fails the pipeline. */
function counter(file: string, onBytes: (n: number) => void, hook?: WriteHook): Transform {
  let done = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      done += chunk.length;
      try {
        hook?.(file, done);
      } catch (err) {
        cb(err as Error);
        return;
      }
      onBytes(done);
      cb(null, chunk);
    },
  });
}

function diskProblem(err: unknown, what: string): never {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') throw new UpdateError(`the disk is full while writing ${what}: free space and run the update again (served data unchanged)`);
  throw err;
}

/** Downloads a URL to a file with node's fetch; 404 and unreachable hosts are one-line errors. */
export async function download(url: string, file: string, progress: SourceProgress, hook?: WriteHook): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new UpdateError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new UpdateError(`${url} answered ${res.status} ${res.statusText}`.trim());
  const total = Number(res.headers.get('content-length')) || null;
  progress.info(`downloading ${url}${total ? ` (${(total / 1e6).toFixed(1)} MB)` : ''}`);
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), counter(file, (n) => progress.bytes('download', n, total), hook), createWriteStream(file));
  } catch (err) {
    if (err instanceof UpdateError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') diskProblem(err, file);
    throw new UpdateError(`the download from ${url} broke off: ${(err as Error).message}`);
  }
}

function isZip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.readUInt32LE(0) === 0x04034b50;
  } finally {
    closeSync(fd);
  }
}

/** yauzl's lazy entries as promises: the next entry, or null at the end. */
function nextEntry(zf: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (e: yauzl.Entry) => done(() => resolve(e));
    const onEnd = () => done(() => resolve(null));
    const onError = (err: Error) => done(() => reject(err));
    const done = (f: () => void) => {
      zf.off('entry', onEntry).off('end', onEnd).off('error', onError);
      f();
    };
    zf.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zf.readEntry();
  });
}

function openEntry(zf: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zf.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}

const TABLE_FILE = /^[a-z_]+\.csv(\.gz)?$/;

/**
 * Extracts the table files (`<table>.csv[.gz]`) of a zip into `into`, streaming (yauzl): they may
 * sit at the zip's root or in one folder; anything else in the zip is left alone.
 */
export async function unzipTables(zip: string, into: string, progress: SourceProgress, hook?: WriteHook): Promise<void> {
  if (!isZip(zip)) throw new UpdateError(`${basename(zip)} is not a zip file`);
  const total = statSync(zip).size;
  let zf: yauzl.ZipFile;
  try {
    zf = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(zip, { lazyEntries: true, autoClose: false, strictFileNames: false }, (err, z) => (err ? reject(err) : resolve(z))));
  } catch (err) {
    throw new UpdateError(`${basename(zip)} is not a readable zip file: ${(err as Error).message}`);
  }
  mkdirSync(into, { recursive: true });
  const folders = new Set<string>();
  let done = 0;
  try {
    for (let entry = await nextEntry(zf); entry; entry = await nextEntry(zf)) {
      const name = entry.fileName;
      if (name.endsWith('/') || !TABLE_FILE.test(basename(name))) continue;
      const folder = dirname(name);
      if (folder !== '.' && folder.includes('/')) continue;
      folders.add(folder);
      if (folders.size > 1) throw new UpdateError(`the zip holds tables in more than one folder (${[...folders].join(', ')}): expected them at its root or in one folder`);
      const target = join(into, basename(name));
      const start = done;
      try {
        await pipeline(await openEntry(zf, entry), counter(target, (n) => progress.bytes('unzip', Math.min(total, start + n), total), hook), createWriteStream(target));
      } catch (err) {
        if (err instanceof UpdateError) throw err;
        diskProblem(err, target);
      }
      done += entry.compressedSize;
    }
  } catch (err) {
    if (err instanceof UpdateError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') diskProblem(err, into);
    throw new UpdateError(`${basename(zip)} is a broken zip file: ${(err as Error).message}`);
  } finally {
    zf.close();
  }
  progress.bytes('unzip', total, total);
}

/** Where an update's source lands: a folder of table files, fetched or unzipped into `work` when needed. */
export async function resolveSource(from: string, work: string, progress: SourceProgress, hook?: WriteHook): Promise<string> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  let zip: string;
  if (/^https?:\/\//i.test(from)) {
    zip = join(work, 'download.zip');
    await download(from, zip, progress, hook);
  } else {
    if (!existsSync(from)) throw new UpdateError(`${from} does not exist`);
    if (statSync(from).isDirectory()) return from;
    zip = from;
  }
  const tables = join(work, 'tables');
  await unzipTables(zip, tables, progress, hook);
  return tables;
}
