import { createHash, randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function crockford26(bytes: Uint8Array): string {
  // 26 base32 characters carry 130 bits; take them from the first 17 bytes.
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += CROCKFORD[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length === 26) break;
  }
  return out;
}

/** A stable service id from a source key such as `tm:player:8198`: same source, same id, on every import. */
export function stableId(kind: 'P' | 'C', sourceKey: string): string {
  return kind + crockford26(createHash('sha256').update(`${kind}|${sourceKey}`).digest());
}

export function randomId(kind: 'P' | 'C'): string {
  return kind + crockford26(randomBytes(17));
}

export const PLAYER_ID_PATTERN = /^P[0-9A-Za-z]{26}$/;
export const CLUB_ID_PATTERN = /^C[0-9A-Za-z]{26}$/;
