import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { WebhookUrlRefused } from '../domain/webhooks.js';

/** Ranges a webhook may never reach (ipaddr.js's names): inside the network, or not an address of anyone's. */
const INTERNAL = new Set(['private', 'linkLocal', 'uniqueLocal', 'unspecified', 'carrierGradeNat', 'reserved', 'multicast', 'broadcast', 'benchmarking', 'amt', 'as112', 'deprecated', 'orchid2', 'droneRemoteIdProtocolEntityTags']);

export interface UrlPolicy {
  /** WEBHOOKS_ALLOW_HTTP_LOOPBACK: http (and https) to a loopback address, for development and tests. */
  readonly allowLoopback: boolean;
}

function rangeOf(address: string): string {
  let ip = ipaddr.parse(address);
  // an IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range();
}

/** A URL that may be called, with the addresses its host resolved to when it was checked. */
export interface CheckedUrl {
  readonly url: URL;
  /** Every address checked; a delivery connects to the first, so a later answer of the name is never used. */
  readonly addresses: readonly string[];
}

/**
 * Checks that a webhook URL may be called, and resolves its host: https to a public address, or
 * loopback when the policy allows it. Run at registration and again before each delivery, which then
 * connects to the address checked here (a name that resolves inside the network later, DNS rebinding,
 * is never connected to). Throws WebhookUrlRefused.
 */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused('not a URL');
  }
  if (url.username || url.password) throw new WebhookUrlRefused('credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new WebhookUrlRefused(`${host} does not resolve`);
    }
  }
  const ranges = addresses.map(rangeOf);
  const loopback = ranges.every((r) => r === 'loopback');
  if (ranges.some((r) => INTERNAL.has(r))) throw new WebhookUrlRefused('a private, link-local or reserved address');
  if (ranges.includes('loopback') && !(loopback && policy.allowLoopback)) throw new WebhookUrlRefused('a loopback address');
  if (url.protocol === 'https:') return { url, addresses };
  if (url.protocol === 'http:' && loopback && policy.allowLoopback) return { url, addresses };
  throw new WebhookUrlRefused('not https');
}
