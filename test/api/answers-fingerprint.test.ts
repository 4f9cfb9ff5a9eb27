/**
 * Every answer of the fingerprint's list (test/helpers/answers.ts) is byte for byte the committed one:
 * a change of any answer, intended or not, is a visible diff of test/fixtures/answers-fingerprint.json
 * (written anew with `node --import tsx bench/answers-fingerprint.ts --update`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ANSWERS_FINGERPRINT, answerDifferences, recordAnswers, type Answer } from '../helpers/answers.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('the answers on the demo world are the committed ones', async () => {
  const expected = JSON.parse(readFileSync(ANSWERS_FINGERPRINT, 'utf8')) as Answer[];
  const differences = answerDifferences(expected, await recordAnswers(t));
  assert.equal(differences.length, 0, `${differences.length} answers differ from ${ANSWERS_FINGERPRINT}:\n${differences.join('\n')}`);
});
