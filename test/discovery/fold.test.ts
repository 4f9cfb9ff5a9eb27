import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compactName, foldWords, nameTokens } from '../../src/discovery/fold.js';

describe('folding names to what a person types', () => {
  const cases: Array<[string, string[]]> = [
    ['Ødegaard', ['odegaard']],
    ['ØDEGAARD', ['odegaard']],
    ['Kjær', ['kjaer']],
    ['Æsir', ['aesir']],
    ['Strauß', ['strauss']],
    ['Łukasz Łapiński', ['lukasz', 'lapinski']],
    ['Đorđe', ['dorde']],
    ['Yıldız', ['yildiz']],
    ['İlkay', ['ilkay']],
    ['Mbappé', ['mbappe']],
    ['Peña', ['pena']],
    ['Çelik', ['celik']],
    ['Vinícius Júnior', ['vinicius', 'junior']],
  ];
  for (const [name, words] of cases) test(`${name} -> ${words.join(' ')}`, () => assert.deepEqual(foldWords(name), words));

  test('apostrophes join the word, any apostrophe sign', () => {
    assert.deepEqual(foldWords("N'Golo"), ['ngolo']);
    assert.deepEqual(foldWords('N’Golo'), ['ngolo']);
    assert.deepEqual(foldWords("Eto'o"), ['etoo']);
  });

  test('hyphens (also the non-breaking one) split the word', () => {
    assert.deepEqual(foldWords('Wright-Phillips'), ['wright', 'phillips']);
    assert.deepEqual(foldWords('Du‑ri'), ['du', 'ri']);
  });

  test('a name is found by its parts and by its joined words', () => {
    assert.deepEqual(nameTokens('Jean-Philippe Mateta'), ['jeanphilippe', 'jean', 'philippe', 'mateta']);
    assert.deepEqual(nameTokens("N'Golo Kanté"), ['ngolo', 'n', 'golo', 'kante']);
  });

  test('German umlauts are also found spelled out', () => {
    assert.ok(nameTokens('Thomas Müller').includes('muller'));
    assert.ok(nameTokens('Thomas Müller').includes('mueller'));
  });

  test('invisible marks and punctuation are not words', () => {
    assert.deepEqual(foldWords('\u200eAbc, Def.'), ['abc', 'def']);
    assert.deepEqual(foldWords('!!'), []);
  });

  test('the compact form ignores case, accents, spaces, hyphens and apostrophes', () => {
    assert.equal(compactName('Jean-Philippe  MATETA'), compactName('jean philippe mateta'));
    assert.equal(compactName("N'Golo Kanté"), 'ngolokante');
  });
});
