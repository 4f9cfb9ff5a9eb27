import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EcbCsvError, parseEcbCsv, parseEcbDate } from '../../src/money/ecb-csv.js';
import { ECB_SOURCE } from '../../src/money/rates.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/rates/${name}`, import.meta.url), 'utf8');

test('daily eurofxref.csv layout: spaced header, trailing comma, "01 July 2024"', () => {
  const t = parseEcbCsv(fixture('eurofxref-daily.csv'));
  assert.equal(t.date, '2024-07-01');
  assert.equal(t.source, ECB_SOURCE);
  assert.equal(Object.keys(t.rates).length, 30);
  assert.equal(t.rates.USD, 1.0745);
  assert.equal(t.rates.GBP, 0.8479);
  assert.equal(t.rates.IDR, 17569);
  assert.equal(t.rates.ZAR, 19.5015);
  assert.equal(Object.hasOwn(t.rates, ''), false);
});

test('N/A cells are skipped, abbreviated month names read', () => {
  const t = parseEcbCsv(fixture('eurofxref-daily-na.csv'));
  assert.equal(t.date, '2024-06-27');
  assert.deepEqual(t.rates, { BGN: 1.9558, GBP: 0.8459, ISK: 148.9, JPY: 171.66, USD: 1.0696 });
});

test('historical layout: newest row taken, its N/A not filled from older days', () => {
  const t = parseEcbCsv(fixture('eurofxref-hist.csv'));
  assert.equal(t.date, '2024-07-03');
  assert.deepEqual(t.rates, { BGN: 1.9558, CZK: 25.194, GBP: 0.8468, JPY: 174.18, TRY: 35.0501, USD: 1.0758 });
  assert.equal(Object.hasOwn(t.rates, 'ISK'), false); // quoted on 2 July, N/A on 3 July
});

test('historical layout in any row order still gives the newest day', () => {
  const [header, ...rows] = fixture('eurofxref-hist.csv').trim().split('\n');
  const shuffled = [header, rows[2], rows[0], rows[3], rows[1]].join('\n');
  assert.equal(parseEcbCsv(shuffled).date, '2024-07-03');
  const oldestFirst = [header, ...rows.reverse()].join('\r\n');
  assert.equal(parseEcbCsv(oldestFirst).rates.USD, 1.0758);
});

test('a byte order mark, CRLF line ends and a custom source are accepted', () => {
  const t = parseEcbCsv('\uFEFFDate, USD, \r\n2024-06-28, 1.0705, \r\n', 'ECB via test');
  assert.deepEqual({ date: t.date, source: t.source, rates: t.rates }, { date: '2024-06-28', source: 'ECB via test', rates: { USD: 1.0705 } });
});

test('a file of another layout is refused with a clear message', () => {
  assert.throws(() => parseEcbCsv(fixture('not-rates.csv')), (err: unknown) => {
    assert.ok(err instanceof EcbCsvError);
    assert.match(err.message, /Not an ECB reference-rate CSV: the header must start with "Date", found "player_id"/);
    return true;
  });
});

test('malformed ECB-like files are refused, each with its reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['  \n\n', /empty/],
    ['Date, USD, JPY,\n', /no data row/],
    ['Date,\n2024-06-28,\n', /names no currencies/],
    ['Date, usd\n2024-06-28, 1.07\n', /header column 2 is "usd", not a currency code/],
    ['Date, USD, Japanese yen\n2024-06-28, 1.07, 171\n', /"Japanese yen", not a currency code/],
    ['Date, USD, USD\n2024-06-28, 1.07, 1.08\n', /USD appears twice/],
    ['Date, USD\n28/06/2024, 1.0705\n', /data row 1: "28\/06\/2024" is not a date/],
    ['Date, USD\n2024-02-30, 1.0705\n', /"2024-02-30" is not a date/],
    ['Date, USD\n2024-06-28, 1,0705\n', /value "0705" in column 3 has no currency/],
    ['Date, USD\n"2024-06-28", "1.07.05"\n', /rate for USD is "1.07.05", not a positive number/],
    ['Date, USD, JPY\n2024-06-28, 0, 171.94\n', /rate for USD is "0"/],
    ['Date, USD, JPY\n2024-06-28, -1.07, 171.94\n', /rate for USD is "-1.07"/],
    ['Date, USD, JPY\n2024-06-28, N/A, N/A\n', /holds no rates \(all N\/A\)/],
    ['Date, USD\n2024-06-28, "1.07\n', /Not an ECB reference-rate CSV: /],
  ];
  for (const [text, reason] of cases) {
    assert.throws(() => parseEcbCsv(text), (err: unknown) => err instanceof EcbCsvError && reason.test(err.message), JSON.stringify(text));
  }
});

test('parseEcbDate reads both ECB date styles and refuses others', () => {
  assert.equal(parseEcbDate('28 June 2024'), '2024-06-28');
  assert.equal(parseEcbDate('03 June 2021'), '2021-06-03');
  assert.equal(parseEcbDate('3 Jun 2021'), '2021-06-03');
  assert.equal(parseEcbDate('2024-06-28'), '2024-06-28');
  assert.equal(parseEcbDate('31 June 2024'), undefined);
  assert.equal(parseEcbDate('28 Juni 2024'), undefined);
  assert.equal(parseEcbDate('June 28, 2024'), undefined);
  assert.equal(parseEcbDate(''), undefined);
});
