import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contrast, heatColour, parseHex } from './heat.ts';

test('the scale runs from light to dark and clamps outside [0, 1]', () => {
  assert.equal(heatColour(0).background, '#f7fbff');
  assert.equal(heatColour(1).background, '#08306b');
  assert.equal(heatColour(-3).background, heatColour(0).background);
  assert.equal(heatColour(7).background, heatColour(1).background);
  assert.equal(heatColour(Number.NaN).background, heatColour(0).background);
  assert.equal(heatColour(0).ink, '#000000');
  assert.equal(heatColour(1).ink, '#ffffff');
});

test('every cell keeps its text readable (WCAG 4.5:1)', () => {
  for (let i = 0; i <= 1000; i++) {
    const { background, ink } = heatColour(i / 1000);
    const ratio = contrast(parseHex(background), parseHex(ink));
    assert.ok(ratio >= 4.5, `t=${i / 1000}: ${ink} on ${background} is ${ratio.toFixed(2)}:1`);
  }
});
