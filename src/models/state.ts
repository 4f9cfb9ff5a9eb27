import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { bundleVersion, type BundleSettings, type ModelBundle } from '../valuation/bundle.js';
import { featureIndex } from '../valuation/features/index.js';
import { warmDiscovery } from '../discovery/index.js';
import { positionPools } from '../valuation/recommend/index.js';
import { loadBundle } from './artifacts.js';
import type { Snapshot } from '../domain/snapshot.js';

/** The bundle settings the configuration asks for (the default names no setting, so its versions stay put). */
export function bundleSettingsOf(config: Pick<Config, 'TOUCHLINE_BACKTESTS'>): BundleSettings {
  return config.TOUCHLINE_BACKTESTS === 'off' ? { backtests: false } : {};
}

export function expectedBundleVersion(snapshot: Snapshot, settings: BundleSettings): string {
  return bundleVersion(snapshot.dataVersion, snapshot.asOf, settings);
}

/** recommend_signings's players by position (about 0.6 s on the real data), built here rather than by a request. */
function warmRecommend(snapshot: Snapshot, bundle: ModelBundle): void {
  if (bundle.impact) positionPools(bundle.impact, snapshot);
}

/**
 * The trained models in force. When the data changes it switches to the artifact trained on the
 * new data if there is one; otherwise it keeps serving the previous models and says so.
 */
export class ModelState {
  private bundle: ModelBundle | null = null;

  constructor(
    private readonly dir: string,
    private readonly settings: BundleSettings,
    private readonly logger?: Logger,
    /** build the snapshot's indexes on a swap; without it the first request that needs one builds it */
    private readonly warm = true,
  ) {}

  current(): ModelBundle | null {
    return this.bundle;
  }

  private warmIndexes(snapshot: Snapshot, bundle: ModelBundle): void {
    if (!this.warm) return;
    featureIndex(snapshot);
    warmDiscovery(snapshot, bundle);
    warmRecommend(snapshot, bundle);
  }

  /** Loads the artifact for this snapshot's data; false when none has been trained. */
  sync(snapshot: Snapshot): boolean {
    const version = expectedBundleVersion(snapshot, this.settings);
    if (this.bundle?.version === version) {
      // Same models, new snapshot (our ratings stored after a training, or a season membership set):
      // its feature and discovery indexes are built here, not on a request.
      this.warmIndexes(snapshot, this.bundle);
      return true;
    }
    const found = loadBundle(this.dir, version);
    if (found) {
      this.bundle = found;
      // Feature indexes are built once per snapshot; pay for it now rather than on a request.
      this.warmIndexes(snapshot, found);
      this.logger?.info({ version }, 'models loaded');
      return true;
    }
    if (this.warm) warmDiscovery(snapshot, this.bundle);
    if (this.bundle) this.logger?.warn({ serving: this.bundle.version, wanted: version }, 'no models trained on the current data: run `touchline train`');
    return false;
  }
}
