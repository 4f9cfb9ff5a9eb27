import { randomBytes } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { fastFailRedis } from '../redis-client.js';
import { DEFAULT_THROTTLE, refusal, type LoginThrottle, type ThrottleDecision, type ThrottleSettings } from './interface.js';

/**
 * One sorted set per client address (score = ms, member = `<16 hex ticket>|<email>`). One script run
 * per attempt: trim what left the window, count the address's attempts and the email's among them,
 * and add the attempt only when both are under their limits; a refusal returns the attempt times the
 * caller needs for Retry-After.
 *   KEYS[1] the address's set   ARGV now_ms, window_ms, per_client, per_email, email, member
 *   returns {1} counted, or {0, all times..., '|', the email's times...}
 */
const ATTEMPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local perClient = tonumber(ARGV[3])
local perEmail = tonumber(ARGV[4])
local email = ARGV[5]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local all = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
local times = {}
local ofEmail = {}
for i = 1, #all, 2 do
  times[#times + 1] = all[i + 1]
  if string.sub(all[i], 18) == email then ofEmail[#ofEmail + 1] = all[i + 1] end
end
if #times < perClient and #ofEmail < perEmail then
  redis.call('ZADD', key, now, ARGV[6])
  redis.call('PEXPIRE', key, window)
  return {1}
end
local out = {0}
for _, t in ipairs(times) do out[#out + 1] = t end
out[#out + 1] = '|'
for _, t in ipairs(ofEmail) do out[#out + 1] = t end
return out
`;

/** Removes the email's members (ARGV[1]), or with ARGV[2] set only that member. */
const FORGIVE = `
if ARGV[2] ~= '' then return redis.call('ZREM', KEYS[1], ARGV[2]) end
local removed = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(m, 18) == ARGV[1] then removed = removed + redis.call('ZREM', KEYS[1], m) end
end
return removed
`;

interface ThrottleRedis extends Redis {
  touchlineLoginAttempt(key: string, ...args: string[]): Promise<(number | string)[]>;
  touchlineLoginForgive(key: string, ...args: string[]): Promise<number>;
}

export interface RedisThrottleOptions {
  keyPrefix?: string;
  commandTimeoutMs?: number;
  redisOptions?: RedisOptions;
}

/** The throttle shared by every instance through Redis. */
export class RedisLoginThrottle implements LoginThrottle {
  readonly client: ThrottleRedis;
  private readonly prefix: string;

  constructor(
    url: string,
    readonly settings: ThrottleSettings = DEFAULT_THROTTLE,
    opts: RedisThrottleOptions = {},
  ) {
    this.prefix = opts.keyPrefix ?? 'touchline:login:';
    // Fails fast while disconnected: the database counts meanwhile (index.ts).
    this.client = fastFailRedis(url, opts.commandTimeoutMs ?? 500, opts.redisOptions) as ThrottleRedis;
    // ioredis reports a lost server through commands too; an unheard 'error' would end the process.
    this.client.on('error', () => {});
    this.client.defineCommand('touchlineLoginAttempt', { numberOfKeys: 1, lua: ATTEMPT });
    this.client.defineCommand('touchlineLoginForgive', { numberOfKeys: 1, lua: FORGIVE });
  }

  async connect(): Promise<void> {
    if (this.client.status === 'wait') await this.client.connect();
    await this.client.ping();
  }

  isReady(): boolean {
    return this.client.status === 'ready';
  }

  async attempt(email: string, client: string, nowMs: number): Promise<ThrottleDecision> {
    const now = Math.floor(nowMs);
    const ticket = randomBytes(8).toString('hex');
    const s = this.settings;
    const reply = await this.client.touchlineLoginAttempt(
      this.prefix + client,
      String(now),
      String(s.windowMs),
      String(s.perClient),
      String(s.perEmailAndClient),
      email,
      `${ticket}|${email}`,
    );
    if (Number(reply[0]) === 1) return { allowed: true, ticket };
    const rest = reply.slice(1).map(String);
    const bar = rest.indexOf('|');
    return refusal(rest.slice(0, bar).map(Number), rest.slice(bar + 1).map(Number), s, now);
  }

  async forgive(email: string, client: string, ticket: string, clearEmail: boolean): Promise<void> {
    await this.client.touchlineLoginForgive(this.prefix + client, email, clearEmail ? '' : `${ticket}|${email}`);
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
