import type { Logger } from 'pino';
import type { Db } from '../data/db.js';
import { claimDueDeliveries, recordAttempt, releaseDelivery, type AttemptResult, type DueDelivery } from '../data/webhook-store.js';
import { RETRY_FOR_MS, WebhookUrlRefused } from '../domain/webhooks.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { checkWebhookUrl, type UrlPolicy } from './url-policy.js';
import { postTo, PostTimeout } from './post.js';

export interface DelivererOptions {
  readonly policy: UrlPolicy;
  /** The data version this instance serves: a data.updated event waits until it is the announced one. */
  readonly servedDataVersion: () => string;
  readonly logger?: Logger;
  /** How often to look for due deliveries (default 1 s). */
  readonly pollMs?: number;
  /** A receiver that has not answered after this long counts as failed (default 10 s). */
  readonly timeoutMs?: number;
  /** Deliveries sent at once (default 8). */
  readonly batch?: number;
}

/** How long a data.updated event may wait for this instance to serve its data before another sends it anyway. */
const SERVED_WAIT_MS = 60_000;

/** The wait before attempt n+1 after n failures: 30 s doubling to at most 2 h, within the 24 hours. */
export function retryDelayMs(failures: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, failures - 1), 2 * 3600_000);
}

/**
 * Sends the stored deliveries off the request path: polls for due ones, claims them (another instance
 * skips a claimed one), POSTs each signed, records the outcome, and schedules a retry with backoff
 * until its 24 hours are spent. Pending deliveries live in the database, so a restart resumes them.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly opts: DelivererOptions,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.opts.pollMs ?? 1_000);
    this.timer.unref();
  }

  /** Stops polling; a round under way finishes (its attempts recorded) first. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round: sends what is due now. Exposed so a caller can drive it without waiting for the timer. */
  tick(): Promise<void> {
    this.running ??= this.round()
      .catch((err: unknown) => this.opts.logger?.warn({ err }, 'webhook deliveries could not be read'))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<void> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const due = await claimDueDeliveries(this.db, this.opts.batch ?? 8, timeoutMs + 30_000);
    await Promise.all(due.map((d) => this.send(d, timeoutMs)));
  }

  private async send(d: DueDelivery, timeoutMs: number): Promise<void> {
    const age = Date.now() - Date.parse(d.eventCreatedAt);
    if (d.type === 'data.updated' && d.dataVersion && d.dataVersion !== this.opts.servedDataVersion() && age < SERVED_WAIT_MS) {
      await releaseDelivery(this.db, d.id, new Date(Date.now() + 1_000));
      return;
    }
    const result = await this.attempt(d, timeoutMs);
    const retryAt = new Date(Date.now() + retryDelayMs(d.attempts + 1));
    const outcome: AttemptResult = { ...result, retryAt: result.delivered || retryAt.getTime() > Date.parse(d.eventCreatedAt) + RETRY_FOR_MS ? null : retryAt };
    await recordAttempt(this.db, d.id, outcome);
    if (!result.delivered) this.opts.logger?.info({ delivery: d.id, event: d.type, status: result.statusCode, error: result.error, retry: outcome.retryAt?.toISOString() ?? 'given up' }, 'webhook delivery failed');
  }

  private async attempt(d: DueDelivery, timeoutMs: number): Promise<Omit<AttemptResult, 'retryAt'>> {
    try {
      // again at each attempt, and connected to as checked: a name may resolve inside the network by now
      const target = await checkWebhookUrl(d.url, this.opts.policy);
      const body = JSON.stringify({ id: d.eventId, type: d.type, created_at: d.eventCreatedAt, data: d.data });
      const status = await postTo(target, {
        'content-type': 'application/json',
        'user-agent': 'Touchline-Webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(d.secret, body, Math.floor(Date.now() / 1000)),
      }, body, timeoutMs);
      // a redirect could lead inside the network: not followed, and not a success
      const delivered = status >= 200 && status < 300;
      return { delivered, statusCode: status, error: delivered ? null : `answered ${status}` };
    } catch (err) {
      const error = err instanceof WebhookUrlRefused ? `URL not allowed: ${err.message}`
        : err instanceof PostTimeout ? err.message
        : err instanceof Error ? err.message : String(err);
      return { delivered: false, statusCode: null, error };
    }
  }
}
