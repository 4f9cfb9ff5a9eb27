import { z } from 'zod';
import { CLUB_ID_PATTERN, PLAYER_ID_PATTERN } from '../domain/ids.js';
import { isIsoDate, parseSeasonLabel } from '../domain/season.js';
import { resolveCurrency } from '../money/currencies.js';
import type { RateTable } from '../money/rates.js';
import { BODY_NOT_OBJECT } from './errors.js';

/**
 * Field schemas with the exact messages of CONVENTIONS.md. Requests are validated field by field in
 * the order of SPEC.md's tables; the first failing field's message is the answer.
 */

const isMissing = (input: unknown) => input === undefined || input === '';

/** PostgreSQL text cannot hold U+0000: a string to store that has one is refused as invalid (never a 500). */
export const storable = (v: string) => !v.includes('\u0000');

/** A required service id: absent or empty -> `<name> is required`, anything else malformed -> `Invalid <name>`. */
export function requiredId(name: string, pattern: RegExp) {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? `${name} is required` : `Invalid ${name}`) })
    .min(1, { error: `${name} is required` })
    .regex(pattern, { error: `Invalid ${name}` });
}

export function optionalId(name: string, pattern: RegExp) {
  return z.string({ error: `Invalid ${name}` }).regex(pattern, { error: `Invalid ${name}` }).optional();
}

export const playerIdField = () => requiredId('player_id', PLAYER_ID_PATTERN).describe('Player service id: P + 26 characters');
export const clubIdField = () => requiredId('club_id', CLUB_ID_PATTERN).describe('Club service id: C + 26 characters');

/** Query-string boolean: true/false/1/0. */
export function queryBoolean(name: string) {
  return z
    .enum(['true', 'false', '1', '0'], { error: `Invalid ${name}` })
    .transform((v) => v === 'true' || v === '1')
    .optional();
}

export function isoDateField(name: string) {
  const message = `Invalid ${name}, must be in the format YYYY-MM-DD`;
  return z.string({ error: message }).refine(isIsoDate, { error: message }).describe('YYYY-MM-DD');
}

export function seasonField() {
  const message = 'Invalid season, must be in the format YYYY/YYYY';
  return z
    .string({ error: message })
    .refine((s) => parseSeasonLabel(s) !== null, { error: message })
    .transform((s) => parseSeasonLabel(s) as number)
    .describe('Season YYYY/YYYY, e.g. 2024/2025');
}

const PLAIN_DIGITS = /^\d+$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Plain digits only (no sign, point, exponent), up to Number.MAX_SAFE_INTEGER so the number is exact. */
export function nonNegativeIntegerQuery(name: string) {
  const message = `Invalid ${name}`;
  return z
    .string({ error: message })
    .regex(PLAIN_DIGITS, { error: message })
    // Tests the pattern again: zod runs this check even when the regex has failed, and BigInt throws on non-digits.
    .refine((s) => PLAIN_DIGITS.test(s) && BigInt(s) <= MAX_SAFE, { error: message })
    .transform(Number);
}

/** A registry id in a JSON body: a JSON number, positive, at most 10^12. null counts as absent. */
export function registryIdField(name: string) {
  const notInteger = `${name} must be an integer`;
  const notPositive = `${name} must be a positive integer`;
  const outOfRange = `${name} is out of allowed range`;
  // zod's int() refuses whole numbers past 2^53, and its number() the Infinity that JSON.parse makes
  // of a literal like 1e400; both are whole numbers written by the client, so they are out of range
  // (or not positive), not "not an integer".
  const wholeOrNot = (input: unknown) =>
    typeof input === 'number' && (Number.isInteger(input) || Math.abs(input) === Infinity) ? (input > 0 ? outOfRange : notPositive) : notInteger;
  return z
    .number({ error: (iss) => wholeOrNot(iss.input) })
    .int({ error: (iss) => wholeOrNot(iss.input) })
    .positive({ error: notPositive })
    .max(1e12, { error: outOfRange })
    .nullish();
}

/**
 * Largest accepted money input (fee, wage), in the requested currency. Far beyond any real fee or
 * wage in any currency, and small enough that every amount derived from it, in EUR or in the
 * currency with the smallest rate, stays a finite whole number that JSON prints without an exponent.
 */
export const MONEY_INPUT_MAX = 1e15;

export function moneyInputField(name: string) {
  const message = `${name} must be a non-negative number`;
  const outOfRange = `${name} is out of allowed range`;
  return z
    // zod's number() refuses Infinity, which JSON.parse makes of a literal like 1e400: too large, not malformed.
    .number({ error: (iss) => (iss.input === Infinity ? outOfRange : message) })
    .min(0, { error: message })
    .max(MONEY_INPUT_MAX, { error: outOfRange })
    .nullish();
}

/**
 * A currency code checked against ISO 4217 and the current rate table. `rates` is asked at
 * validation time so a rates import takes effect without a restart.
 */
export function currencyField(name: string, rates: () => RateTable) {
  return z
    .string({ error: `${name} must be a string` })
    .superRefine((code, ctx) => {
      if (!resolveCurrency(code, rates()).ok) ctx.addIssue({ code: 'custom', message: `Invalid currency code: ${code.trim().toUpperCase()}` });
    })
    .transform((code) => code.trim().toUpperCase())
    .optional()
    .describe('ISO 4217 code, any case; default EUR');
}

/** The currency of an answer: the one asked, else the account's preferred one while it has a rate, else EUR. */
export function answerCurrency(requested: string | undefined, preferred: string | null, rates: RateTable): string {
  if (requested !== undefined) return requested;
  return preferred && resolveCurrency(preferred, rates).ok ? preferred.toUpperCase() : 'EUR';
}

/** A JSON body: anything but a JSON object is `Body must be a JSON object`. */
export function bodyObject<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, { error: BODY_NOT_OBJECT });
}

/** A whole number in a query string, within [min, max]; anything else is `Invalid <name>`. */
export function intRangeQuery(name: string, min: number, max: number) {
  const message = `Invalid ${name}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,6}$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message });
}

/** A non-negative amount in a query string (digits, optionally a decimal part), at most MONEY_INPUT_MAX. */
export function amountQuery(name: string) {
  const message = `Invalid ${name}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,16}(\.\d{1,6})?$/, { error: message })
    .transform(Number)
    .refine((n) => n <= MONEY_INPUT_MAX, { error: message });
}

/** One of the listed values, exactly; anything else is `Invalid <name>`. */
export function enumQuery<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { error: `Invalid ${name}` });
}
