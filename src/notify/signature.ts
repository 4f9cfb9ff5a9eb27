import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Touchline-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as Stripe signs: the receiver recomputes
 * it with its secret, and refuses a time too far from its clock (a replayed delivery).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
