import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client address login throttling counts by, from the request's address (Fastify's `request.ip`:
 * the peer, or with TRUST_PROXY the address the trusted proxies forwarded).
 * - IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack socket reports) is the IPv4 address.
 * - Other IPv6 addresses count by their /64: one host is commonly given a whole /64, so counting
 *   single addresses would hand an attacker 2^64 fresh budgets.
 */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip === '' ? 'unknown' : ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (zone id dropped). */
function expandIPv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (a.b.c.d) takes two groups.
  const last = right.length ? right : left;
  const v4 = last.length && isIPv4(last[last.length - 1]) ? last.pop()!.split('.').map(Number) : null;
  if (v4) last.push(((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  const zeros = ip.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
