import { dictionary } from '@zxcvbn-ts/language-common';
import { AccessError } from './messages.js';

/** EXTENSIONS "Passwords": the rules every password set must meet. */
export const PASSWORD_MIN_LENGTH = 12;
export const COMMON_PASSWORDS_COUNT = 10_000;

/**
 * zxcvbn's `passwords-common` list (49,233 entries from leaked-password corpora, most frequent first,
 * all lower case); its first 10,000 are the 10,000 most common. Built on first use (~10 ms).
 */
let common: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_COUNT));
  return common;
}

export const PASSWORD_RULES = {
  length: `Password must have at least ${PASSWORD_MIN_LENGTH} characters`,
  common: 'Password is among the 10,000 most common passwords',
  email: "Password must not contain the email's local part",
} as const;

/** The first rule the password breaks, or null. Case is ignored: `PassWord` is as common as `password`. */
export function passwordProblem(password: string, email: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return PASSWORD_RULES.length;
  const lower = password.toLowerCase();
  // A common password padded to length with digits or symbols (`password1234`, `!!dragon2024`) is as
  // guessable as the word itself: guessers try those first.
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  if (commonPasswords().has(lower) || (core.length >= 4 && commonPasswords().has(core))) return PASSWORD_RULES.common;
  const at = email.lastIndexOf('@');
  const local = (at < 0 ? email : email.slice(0, at)).trim().toLowerCase();
  if (local !== '' && lower.includes(local)) return PASSWORD_RULES.email;
  return null;
}

/** Throws the rule broken, as an AccessError the CLI prints alone; checked before anything is written. */
export function checkPasswordPolicy(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new AccessError(problem);
}
