import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedUrl } from './url-policy.js';

/** The receiver did not answer within the time given. */
export class PostTimeout extends Error {}

/**
 * POSTs a body to a checked URL, connecting to the address the check resolved (not to whatever the
 * name resolves to now); TLS still verifies the certificate against the URL's host name. Resolves
 * with the status; redirects are not followed. Rejects on a network error or after `timeoutMs`.
 */
export function postTo(target: CheckedUrl, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  const address = target.addresses[0]!;
  const family = address.includes(':') ? 6 : 4;
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target.url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, timeout: timeoutMs }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new PostTimeout(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
