import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dictionary } from '@zxcvbn-ts/language-common';
import { COMMON_PASSWORDS_COUNT, passwordProblem, PASSWORD_RULES } from '../../src/access/password-policy.js';

const EMAIL = 'analyst.one@club.example';

test('the list is the 10,000 most common of a frequency-ranked public list', () => {
  const all = dictionary['passwords-common'];
  assert.ok(all.length > 40_000, `${all.length} entries`);
  assert.deepEqual(all.slice(0, 3), ['123456', 'password', '12345678'], 'most frequent first');
  assert.equal(COMMON_PASSWORDS_COUNT, 10_000);
});

test('each rule, named', () => {
  assert.equal(passwordProblem('a', EMAIL), PASSWORD_RULES.length);
  assert.equal(passwordProblem('elevenchars', EMAIL), PASSWORD_RULES.length);
  assert.equal(PASSWORD_RULES.length, 'Password must have at least 12 characters');
  // Long entries of the top 10,000, in any case.
  for (const p of ['qwerty123456', '1qaz2wsx3edc', 'LeaveMeAlone', 'SONYERICSSON']) assert.equal(passwordProblem(p, EMAIL), PASSWORD_RULES.common, p);
  // A common word padded with digits or symbols.
  for (const p of ['password1234', '!!dragon2024', 'football!!!!', 'Sunshine2026.']) assert.equal(passwordProblem(p, EMAIL), PASSWORD_RULES.common, p);
  assert.equal(passwordProblem('xx-Analyst.One-2026', EMAIL), PASSWORD_RULES.email);
  assert.equal(passwordProblem('ANALYST.ONE.rules', EMAIL), PASSWORD_RULES.email, 'case is ignored');
});

test('long, uncommon passwords without the local part pass; entries past the 10,000th are not refused by the list', () => {
  for (const p of ['correct horse battery staple', 'long enough and unusual', 'tl-9fQ2vX7mPz']) assert.equal(passwordProblem(p, EMAIL), null, p);
  const beyond = dictionary['passwords-common'].slice(COMMON_PASSWORDS_COUNT).find((p) => p.length >= 12 && /^[a-z]+$/.test(p));
  if (beyond) assert.equal(passwordProblem(beyond, EMAIL), null, beyond);
  // The length counts characters, not UTF-16 units.
  assert.equal(passwordProblem('ééééééééééé', EMAIL), PASSWORD_RULES.length);
  assert.equal(passwordProblem('😀'.repeat(11), EMAIL), PASSWORD_RULES.length);
});
