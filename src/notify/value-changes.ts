import type { Db } from '../data/db.js';
import { enqueueEvent, listenersWithListedPlayers } from '../data/webhook-store.js';
import type { Snapshot } from '../domain/snapshot.js';
import { VALUE_CHANGE_SHARE } from '../domain/webhooks.js';
import type { ModelBundle } from '../valuation/bundle.js';
import { featureIndex, latestValue } from '../valuation/features/index.js';
import { predictFeePoint } from '../valuation/fee/predict.js';

/** The data and models served, before or after a change. */
export interface Served {
  readonly snapshot: Snapshot;
  readonly bundle: ModelBundle;
}

interface Figures {
  readonly market_value_eur: number | null;
  readonly expected_transfer_value_eur: number | null;
}

function figuresOf(s: Served, playerId: string): Figures {
  if (!s.snapshot.players.has(playerId)) return { market_value_eur: null, expected_transfer_value_eur: null };
  const value = latestValue(featureIndex(s.snapshot), playerId, s.snapshot.asOf);
  return { market_value_eur: value?.valueEur ?? null, expected_transfer_value_eur: Math.round(predictFeePoint(s.bundle.fee, s.snapshot, { playerId })) };
}

/** Moved by the share or more (a figure that appears or disappears has moved; from 0 any rise has). */
function moved(before: number | null, after: number | null): boolean {
  if (before === null || after === null) return before !== after;
  if (before === 0) return after !== 0;
  return Math.abs(after / before - 1) >= VALUE_CHANGE_SHARE;
}

/**
 * After the served data changed: a `list.value_changed` event for each listed player of each
 * listening account whose market value or expected fee moved 10% or more. Every instance that sees
 * the change runs this; the dedupe key lets the first one's events stand. Returns the events raised.
 */
export async function raiseValueChanges(db: Db, before: Served, after: Served): Promise<number> {
  const listeners = await listenersWithListedPlayers(db, 'list.value_changed');
  const figures = new Map<string, { before: Figures; after: Figures } | null>();
  let raised = 0;
  for (const [webhookId, playerIds] of listeners) {
    for (const playerId of playerIds) {
      if (!figures.has(playerId)) {
        const b = figuresOf(before, playerId);
        const a = figuresOf(after, playerId);
        const changed = moved(b.market_value_eur, a.market_value_eur) || moved(b.expected_transfer_value_eur, a.expected_transfer_value_eur);
        figures.set(playerId, changed ? { before: b, after: a } : null);
      }
      const change = figures.get(playerId);
      if (!change) continue;
      const name = after.snapshot.players.get(playerId)?.name ?? before.snapshot.players.get(playerId)?.name ?? null;
      raised += await enqueueEvent(db, {
        type: 'list.value_changed',
        webhookId,
        dedupeKey: `list.value_changed:${webhookId}:${playerId}:${before.snapshot.dataVersion}>${after.snapshot.dataVersion}`,
        data: { player_id: playerId, name, data_version: after.snapshot.dataVersion, data_as_of: after.snapshot.asOf, ...change },
      });
    }
    // a long list yields the event loop between accounts
    await new Promise((r) => setImmediate(r));
  }
  return raised;
}
