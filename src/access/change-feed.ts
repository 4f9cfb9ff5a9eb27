import pg from 'pg';
import { ACCESS_CHANNEL } from './version.js';

export interface FeedLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ChangeFeedOptions {
  /** First wait before reconnecting after the connection is lost; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  logger?: FeedLogger;
}

/**
 * Access changes made by other processes, as PostgreSQL announces them: LISTEN on one dedicated
 * connection (bumpAccessVersion notifies in the change's transaction, delivered at commit).
 * `onChange(version)` gets the new version of each notification, and null whenever notifications may
 * have been missed: when the connection is lost, and again once it listens anew. The access-version
 * poll stays the guarantee; this makes other instances drop their caches in milliseconds instead.
 */
export class AccessChangeFeed {
  private client: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;

  private constructor(
    private readonly url: string,
    private readonly onChange: (version: string | null) => void,
    private readonly opts: ChangeFeedOptions,
  ) {
    this.retryMs = opts.retryMs ?? 1_000;
    this.maxRetryMs = opts.maxRetryMs ?? 10_000;
    this.delayMs = this.retryMs;
  }

  /** Connects and listens; when that fails it keeps retrying in the background (the poll covers meanwhile). */
  static async start(url: string, onChange: (version: string | null) => void, opts: ChangeFeedOptions = {}): Promise<AccessChangeFeed> {
    const feed = new AccessChangeFeed(url, onChange, opts);
    await feed.connect();
    return feed;
  }

  /** True while notifications are being received. */
  isListening(): boolean {
    return this.listening;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    this.client = client;
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      if (this.listening) {
        this.listening = false;
        this.opts.logger?.warn({ err }, 'access change notifications lost: polling the access version until they return');
        this.onChange(null);
      }
      this.retryTimer = setTimeout(() => void this.connect(), this.delayMs);
      this.retryTimer.unref();
      this.delayMs = Math.min(this.delayMs * 2, this.maxRetryMs);
    };
    // Without these listeners a lost server would be an unhandled 'error' and end the process.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === ACCESS_CHANNEL) this.onChange(msg.payload ?? null);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
    } catch (err) {
      onLost(err);
      return;
    }
    if (lost || this.closed) {
      client.end().catch(() => {});
      return;
    }
    const returned = this.delayMs !== this.retryMs;
    this.listening = true;
    this.delayMs = this.retryMs;
    if (returned) this.opts.logger?.info({}, 'access change notifications back');
    // Whatever changed while nobody listened.
    this.onChange(null);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}
