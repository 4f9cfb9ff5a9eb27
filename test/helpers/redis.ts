import { createConnection } from 'node:net';

/** Whether something accepts TCP connections at the Redis URL's host and port (the API tests skip otherwise). */
export function redisReachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port || 6379) });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
