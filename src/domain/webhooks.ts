/** The webhooks' vocabulary (EXTENSIONS "Webhooks"): stored by data/, delivered by notify/, served by http/. */

export const WEBHOOK_EVENTS = ['data.updated', 'list.value_changed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** At most this many webhooks per account. */
export const WEBHOOKS_MAX = 20;
/** The deliveries GET /v1/webhooks/deliveries lists, newest first. */
export const DELIVERIES_LISTED = 100;
/** A delivery that has not succeeded this long after its event is given up. */
export const RETRY_FOR_MS = 24 * 3600_000;
/** The share a listed player's value or expected fee must move by for `list.value_changed`. */
export const VALUE_CHANGE_SHARE = 0.1;

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  /** ISO 8601, UTC */
  readonly createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  readonly id: string;
  readonly eventId: string;
  readonly event: WebhookEventType;
  readonly status: DeliveryStatus;
  /** The receiver's last HTTP status; null before the first attempt or when none answered. */
  readonly statusCode: number | null;
  readonly attempts: number;
  /** The last error in words (timeout, refused address, …), null when the receiver answered. */
  readonly error: string | null;
  /** ISO 8601: when the event was created. */
  readonly createdAt: string;
  /** ISO 8601: the last attempt, null before the first. */
  readonly lastAttemptAt: string | null;
  /** ISO 8601: the next attempt of a pending delivery. */
  readonly nextAttemptAt: string | null;
}

/** A webhook URL that may not be called: not https, or an address inside the network (SSRF). */
export class WebhookUrlRefused extends Error {}

export type RegisterOutcome = { readonly ok: true; readonly webhook: Webhook; readonly secret: string } | { readonly ok: false; readonly reason: 'full' };

/** What the API does with an account's webhooks. */
export interface WebhookService {
  /** Checks the URL (throws WebhookUrlRefused), stores it with a new secret. */
  register(accountId: number, url: string, events: readonly WebhookEventType[]): Promise<RegisterOutcome>;
  list(accountId: number): Promise<Webhook[]>;
  /** false when the account has no such webhook. */
  remove(accountId: number, webhookId: string): Promise<boolean>;
  /** The webhook's last deliveries, newest first; null when the account has no such webhook. */
  deliveries(accountId: number, webhookId: string): Promise<Delivery[] | null>;
}
