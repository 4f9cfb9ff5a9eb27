import type { Logger } from 'pino';
import type { RateTable } from '../money/rates.js';
import type { Db } from './db.js';
import { currentRates } from './rates-store.js';
import { buildSnapshot, type Snapshot } from '../domain/snapshot.js';
import { loadWorld, readMeta } from './world-store.js';

const versionsOf = (meta: Record<string, string>) => ({
  snapshot: `${meta.data_version ?? 'empty'}|${meta.ratings_version ?? 'none'}`,
  rates: meta.rates_version ?? 'default',
});

/**
 * Holds the read model and the exchange rates in force, and replaces them whole when the stored
 * versions change: it polls the versions the stores bump (world replace, model ratings, rates),
 * so a change made by another process (the CLI, another instance) is served without a restart.
 */
export class WorldState {
  private snapshotNow: Snapshot;
  private ratesNow: RateTable;
  private versions: { snapshot: string; rates: string };
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<boolean> | null = null;
  private readonly listeners: Array<(s: Snapshot) => void> = [];

  private constructor(
    private readonly db: Db,
    private readonly asOf: string,
    initial: { snapshot: Snapshot; rates: RateTable; versions: { snapshot: string; rates: string } },
    private readonly logger?: Logger,
  ) {
    this.snapshotNow = initial.snapshot;
    this.ratesNow = initial.rates;
    this.versions = initial.versions;
  }

  static async load(db: Db, asOf: string, logger?: Logger): Promise<WorldState> {
    const meta = await readMeta(db);
    const snapshot = await WorldState.readSnapshot(db, asOf, meta);
    const rates = (await currentRates(db)).table;
    return new WorldState(db, asOf, { snapshot, rates, versions: versionsOf(meta) }, logger);
  }

  private static async readSnapshot(db: Db, asOf: string, meta: Record<string, string>): Promise<Snapshot> {
    const world = await loadWorld(db);
    return buildSnapshot(world, asOf, meta.data_version ?? 'empty', meta.ratings_version ?? 'none');
  }

  current(): Snapshot {
    return this.snapshotNow;
  }

  rates(): RateTable {
    return this.ratesNow;
  }

  onChange(listener: (s: Snapshot) => void): void {
    this.listeners.push(listener);
  }

  /** Reloads what changed in the store; true when the snapshot was rebuilt. */
  refresh(): Promise<boolean> {
    this.reloading ??= this.reload().finally(() => (this.reloading = null));
    return this.reloading;
  }

  private async reload(): Promise<boolean> {
    const meta = await readMeta(this.db);
    const next = versionsOf(meta);
    if (next.rates !== this.versions.rates) {
      this.ratesNow = (await currentRates(this.db)).table;
      this.versions = { ...this.versions, rates: next.rates };
      this.logger?.info({ date: this.ratesNow.date }, 'exchange rates reloaded');
    }
    if (next.snapshot === this.versions.snapshot) return false;
    const started = Date.now();
    this.snapshotNow = await WorldState.readSnapshot(this.db, this.asOf, meta);
    this.versions = { ...this.versions, snapshot: next.snapshot };
    this.logger?.info({ dataVersion: this.snapshotNow.dataVersion, ratingsVersion: this.snapshotNow.ratingsVersion, ms: Date.now() - started }, 'data changed: read model rebuilt');
    for (const l of this.listeners) l(this.snapshotNow);
    return true;
  }

  watch(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => {
      this.refresh().catch((err) => this.logger?.warn({ err }, 'data version check failed'));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
