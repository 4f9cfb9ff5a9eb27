import type { Logger } from 'pino';
import type { RateTable } from '../money/rates.js';
import type { Db } from './db.js';
import { currentRates } from './rates-store.js';
import { servedAsOf } from '../config.js';
import type { Snapshot } from '../domain/snapshot.js';
import { baseSnapshotOf, snapshotOf, type SnapshotSource } from '../domain/snapshot-source.js';
import { loadSeasonClubs } from './season-clubs-store.js';
import { loadWorld, readMeta } from './world-store.js';

type Versions = { snapshot: string; rates: string; membership: string };

const versionsOf = (meta: Record<string, string>): Versions => ({
  snapshot: `${meta.data_version ?? 'empty'}|${meta.ratings_version ?? 'none'}`,
  rates: meta.rates_version ?? 'default',
  membership: meta.membership_version ?? 'none',
});

/**
 * Holds the read model and the exchange rates in force, and replaces them whole when the stored
 * versions change: it polls the versions the stores bump (world replace, model ratings, rates),
 * so a change made by another process (the CLI, another instance) is served without a restart.
 */
export class WorldState {
  /** The world as read, before the season membership is applied. */
  private base: Snapshot;
  private snapshotNow: Snapshot;
  /** The rows and versions snapshotNow was built from, for the analysis workers. */
  private sourceNow: SnapshotSource;
  private ratesNow: RateTable;
  private versions: Versions;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<boolean> | null = null;
  private readonly listeners: Array<(s: Snapshot) => void> = [];

  private constructor(
    private readonly db: Db,
    /** TOUCHLINE_AS_OF; unset, each read takes the data's own as-of date from the store. */
    private readonly asOf: string | undefined,
    initial: { base: Snapshot; snapshot: Snapshot; source: SnapshotSource; rates: RateTable; versions: Versions },
    private readonly logger?: Logger,
  ) {
    this.base = initial.base;
    this.snapshotNow = initial.snapshot;
    this.sourceNow = initial.source;
    this.ratesNow = initial.rates;
    this.versions = initial.versions;
  }

  static async load(db: Db, asOf: string | undefined, logger?: Logger): Promise<WorldState> {
    const { meta, read } = await WorldState.readSource(db, asOf, await readMeta(db));
    const base = baseSnapshotOf(read);
    const versions = versionsOf(meta);
    const source = await WorldState.withMembership(db, read, versions.membership);
    const snapshot = snapshotOf(source, base);
    const rates = (await currentRates(db)).table;
    return new WorldState(db, asOf, { base, snapshot, source, rates, versions }, logger);
  }

  private static async withMembership(db: Db, source: SnapshotSource, version: string): Promise<SnapshotSource> {
    return { ...source, seasonClubs: version === 'none' ? [] : await loadSeasonClubs(db), membershipVersion: version };
  }

  /**
   * Reads the world table by table, each read one statement: a swap (data/staging.ts) or a training
   * committing between two of them would leave half of each, so the versions are read again after
   * and the read repeated until they held still. Returns the meta the rows belong to.
   */
  private static async readSource(db: Db, asOf: string | undefined, metaBefore: Record<string, string>): Promise<{ meta: Record<string, string>; read: SnapshotSource }> {
    let meta = metaBefore;
    for (let attempt = 1; ; attempt++) {
      const world = await loadWorld(db);
      const after = await readMeta(db);
      if (versionsOf(after).snapshot === versionsOf(meta).snapshot || attempt >= 5) {
        // Five swaps in a row during one read cannot happen with updates minutes apart; the last read stands.
        meta = after;
        const read = { world, asOf: servedAsOf({ TOUCHLINE_AS_OF: asOf }, meta), dataVersion: meta.data_version ?? 'empty', ratingsVersion: meta.ratings_version ?? 'none', seasonClubs: [], membershipVersion: 'none' };
        return { meta, read };
      }
      meta = after;
    }
  }

  current(): Snapshot {
    return this.snapshotNow;
  }

  /** The rows and versions the snapshot in force was built from. */
  source(): SnapshotSource {
    return this.sourceNow;
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
    let meta = await readMeta(this.db);
    const next = versionsOf(meta);
    if (next.rates !== this.versions.rates) {
      this.ratesNow = (await currentRates(this.db)).table;
      this.versions = { ...this.versions, rates: next.rates };
      this.logger?.info({ date: this.ratesNow.date }, 'exchange rates reloaded');
    }
    if (next.snapshot === this.versions.snapshot && next.membership === this.versions.membership) return false;
    const started = Date.now();
    // Only a new world or new ratings need the world read again; a new membership is applied to the one held.
    let read: SnapshotSource = this.sourceNow;
    if (next.snapshot !== this.versions.snapshot) {
      ({ meta, read } = await WorldState.readSource(this.db, this.asOf, meta));
      this.base = baseSnapshotOf(read);
      // The read may have met a newer version than the one checked: that is the one held now.
      next.snapshot = versionsOf(meta).snapshot;
    }
    const source = await WorldState.withMembership(this.db, read, next.membership);
    this.snapshotNow = snapshotOf(source, this.base);
    this.sourceNow = source;
    this.versions = { ...this.versions, snapshot: next.snapshot, membership: next.membership };
    this.logger?.info({ dataVersion: this.snapshotNow.dataVersion, ratingsVersion: this.snapshotNow.ratingsVersion, membershipVersion: this.snapshotNow.membershipVersion, ms: Date.now() - started }, 'data changed: read model rebuilt');
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
