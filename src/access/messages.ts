/** The exact strings of CONVENTIONS.md that access/ produces; clients compare them byte for byte. */
export const MSG = {
  invalidKey: 'Invalid API key',
  revokedKey: 'API key is revoked',
  accountInactive: 'Account access denied: account is inactive',
  accountNotActivated: 'Account access denied: account is not activated',
  noPlan: 'Account access denied: no plan access',
  badLogin: 'Invalid email or password',
  // CONVENTIONS has one 429 string; a login lockout is answered like the per-key rate limit.
  loginLocked: 'Rate limit exceeded',
} as const;

/** A user error from an access operation (unknown plan, duplicate email, ...): the CLI prints it as is. */
export class AccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccessError';
  }
}
