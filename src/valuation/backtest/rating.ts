/**
 * The rating backtest: our ratings as of an origin (the rating model fitted then) against the next
 * published edition (EA's; the demo world's generator ratings), released after the origin and by the
 * as-of date: the next season's evidence. Against the last published rating before the origin, the
 * figure a scout would otherwise read (absent where the data holds no earlier edition).
 */
import { ratingReleaseDate } from '../../domain/rating-releases.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { RatingRow } from '../../domain/world.js';
import { meanAbsoluteError, spearman } from '../ml/metrics.js';
import type { RatingCard, RatingMetrics } from './card.js';
import type { OriginFit } from './origins.js';

function metrics(ours: readonly number[], target: readonly number[]): RatingMetrics {
  return { n: ours.length, mae: meanAbsoluteError(target, ours), spearman: spearman(target, ours) };
}

/** The rating card at the origins (the first edition released after each); null without such an edition. */
export function ratingBacktest(last: Snapshot, fits: readonly OriginFit[]): RatingCard | null {
  const published = last.externalRatings;
  const source = published.some((r) => r.source === 'ea') ? 'ea' : published.some((r) => r.source === 'demo') ? 'demo' : null;
  if (!source) return null;
  const ours: number[] = [], target: number[] = [], lastOurs: number[] = [], lastTarget: number[] = [], lastPublished: number[] = [];
  const origins: string[] = [];
  for (const fit of fits) {
    const season = fit.season;
    const next = published.filter((r) => r.source === source && r.season === season && ratingReleaseDate(source, season) > fit.origin);
    if (next.length === 0) continue;
    origins.push(fit.origin);
    const before = new Map<string, RatingRow>();
    for (const r of published) if (r.source === source && r.season === season - 1 && ratingReleaseDate(source, season - 1) <= fit.origin) before.set(r.player_id, r);
    for (const r of next) {
      const mine = fit.rated.ratings.get(r.player_id)?.filter((x) => x.season <= season - 1).at(-1);
      if (!mine || !Number.isFinite(mine.rating) || !Number.isFinite(r.rating)) continue;
      ours.push(mine.rating);
      target.push(r.rating);
      const prior = before.get(r.player_id);
      if (prior && Number.isFinite(prior.rating)) {
        lastOurs.push(mine.rating);
        lastTarget.push(r.rating);
        lastPublished.push(prior.rating);
      }
    }
  }
  if (ours.length < 20) return null;
  const withLast = lastPublished.length >= 20;
  return {
    metric: 'mae, spearman',
    origins,
    target: source === 'ea' ? 'the next EA rating released after the origin' : 'the next published rating released after the origin',
    n: ours.length,
    model: metrics(ours, target),
    baselines: withLast ? { last_rating: metrics(lastPublished, lastTarget) } : {},
    ...(withLast ? { model_with_last_rating: metrics(lastOurs, lastTarget) } : {}),
  };
}
