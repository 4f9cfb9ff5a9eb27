import type { Logger } from 'pino';
import type { Db } from './db.js';
import { buildSnapshot, type Snapshot } from './snapshot.js';
import { loadWorld, readMeta } from './world-store.js';

/**
 * Holds the read model in force and replaces it whole when the stored data changes: it polls the
 * data version the store bumps on every world replace, so an import made by another process (the
 * CLI, another instance) is served without a restart.
 */
export class WorldState {
  private snapshotNow: Snapshot;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private readonly listeners: Array<(s: Snapshot) => void> = [];

  private constructor(
    private readonly db: Db,
    private readonly asOf: string,
    initial: Snapshot,
    private readonly logger?: Logger,
  ) {
    this.snapshotNow = initial;
  }

  static async load(db: Db, asOf: string, logger?: Logger): Promise<WorldState> {
    const snapshot = await WorldState.read(db, asOf);
    return new WorldState(db, asOf, snapshot, logger);
  }

  private static async read(db: Db, asOf: string): Promise<Snapshot> {
    const meta = await readMeta(db);
    const world = await loadWorld(db);
    return buildSnapshot(world, asOf, meta.data_version ?? 'empty');
  }

  current(): Snapshot {
    return this.snapshotNow;
  }

  onChange(listener: (s: Snapshot) => void): void {
    this.listeners.push(listener);
  }

  /** Rebuilds the snapshot if the stored data version differs from the one served. */
  async refresh(): Promise<boolean> {
    if (this.reloading) {
      await this.reloading;
      return false;
    }
    const meta = await readMeta(this.db);
    if ((meta.data_version ?? 'empty') === this.snapshotNow.dataVersion) return false;
    this.reloading = (async () => {
      const started = Date.now();
      const next = await WorldState.read(this.db, this.asOf);
      this.snapshotNow = next;
      this.logger?.info({ dataVersion: next.dataVersion, ms: Date.now() - started }, 'data changed: read model rebuilt');
      for (const l of this.listeners) l(next);
    })();
    try {
      await this.reloading;
    } finally {
      this.reloading = null;
    }
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
