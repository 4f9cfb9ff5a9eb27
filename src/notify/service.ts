import type { Db } from '../data/db.js';
import { createWebhookStore } from '../data/webhook-store.js';
import { WEBHOOKS_MAX, type WebhookService } from '../domain/webhooks.js';
import { checkWebhookUrl, type UrlPolicy } from './url-policy.js';

/** The account's webhooks as the API manages them: the URL checked before it is stored. */
export function createWebhookService(db: Db, policy: UrlPolicy): WebhookService {
  const store = createWebhookStore(db);
  return {
    async register(accountId, url, events) {
      await checkWebhookUrl(url, policy);
      const made = await store.insert(accountId, url, [...new Set(events)], WEBHOOKS_MAX);
      return made ? { ok: true, ...made } : { ok: false, reason: 'full' };
    },
    list: (accountId) => store.list(accountId),
    remove: (accountId, webhookId) => store.remove(accountId, webhookId),
    deliveries: (accountId, webhookId) => store.deliveries(accountId, webhookId),
  };
}
