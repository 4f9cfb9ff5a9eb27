import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MONEY_INPUT_MAX } from '../../src/http/fields.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { extremeRateCurrencies, hugeNumbersIn } from '../helpers/money.js';

let t: TestApp;
let player: string;
let club: string;
let unavailable: string;
before(async () => {
  t = await startTestApp();
  const s = t.runtime.world.current();
  const league = [...s.clubsOfLeague.keys()].sort()[0];
  club = s.clubsOfLeague.get(league)![0];
  const otherClub = s.clubsOfLeague.get(league)![1];
  player = s.squads.get(otherClub)!.find((id) => s.players.get(id)!.analysis_available)!;
  // A covered player (he has a current team) whose analysis data is not ready.
  unavailable = [...s.squads.values()].flat().find((id) => !s.players.get(id)!.analysis_available)!;
});
after(async () => {
  await t?.close();
});

const json = (res: { body: string }) => JSON.parse(res.body);

const CATEGORIES = ['Elite Prospect', 'Excellent Opportunity', 'Steady Grower', 'Stable Value', 'Decline', 'Major decline'];
// The bands of EXTENSIONS.md, written out here so the test does not read them from the code under test.
const BANDS: Array<[string, number]> = [['Elite Prospect', 2.5], ['Excellent Opportunity', 1.5], ['Steady Grower', 1.1], ['Stable Value', 0.8], ['Decline', 0.5], ['Major decline', 0]];
const bandOf = (ratio: number) => BANDS.find(([, min]) => ratio >= min)![0];

describe('expected transfer value', () => {
  test('answers in EUR by default with the model version header and an 80% range', async () => {
    const res = await t.get(`/v1/expected_transfer_value?player_id=${player}`);
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.equal(b.currency, 'EUR');
    assert.ok(Number.isInteger(b.expected_transfer_value) && b.expected_transfer_value > 0);
    assert.equal(b.expected_transfer_value, b.expected_transfer_value_in_eur);
    assert.ok(b.expected_transfer_value_range.low <= b.expected_transfer_value && b.expected_transfer_value <= b.expected_transfer_value_range.high);
    assert.match(String(res.headers['touchline-model-version']), /.+/);
  });

  test('another currency: any case, echoed upper case, the EUR figure unchanged', async () => {
    const eur = json(await t.get(`/v1/expected_transfer_value?player_id=${player}`));
    const usd = json(await t.get(`/v1/expected_transfer_value?player_id=${player}&currency=usd`));
    assert.equal(usd.currency, 'USD');
    assert.equal(usd.expected_transfer_value_in_eur, eur.expected_transfer_value_in_eur);
    assert.notEqual(usd.expected_transfer_value, eur.expected_transfer_value);
  });

  test('a contract ending sooner never raises the fee', async () => {
    const fees = [];
    for (const end of ['2026-12-31', '2027-06-30', '2028-06-30', '2030-06-30']) {
      fees.push(json(await t.get(`/v1/expected_transfer_value?player_id=${player}&contract_end_date=${end}`)).expected_transfer_value_in_eur);
    }
    for (let i = 1; i < fees.length; i++) assert.ok(fees[i - 1] <= fees[i], fees.join(' '));
  });

  test('a target club is accepted and the same request gives the same answer', async () => {
    const a = await t.get(`/v1/expected_transfer_value?player_id=${player}&target_club_id=${club}`);
    const b = await t.get(`/v1/expected_transfer_value?player_id=${player}&target_club_id=${club}`);
    assert.equal(a.statusCode, 200);
    assert.equal(a.body, b.body);
  });

  test('errors, in the order of the parameter table', async () => {
    const unknownP = `P${'0'.repeat(26)}`;
    const unknownC = `C${'0'.repeat(26)}`;
    const cases: Array<[string, number, string]> = [
      ['', 400, 'player_id is required'],
      ['player_id=x', 400, 'Invalid player_id'],
      [`player_id=${player}&target_club_id=x`, 400, 'Invalid target_club_id'],
      [`player_id=${player}&currency=XYZ&contract_end_date=bad`, 400, 'Invalid currency code: XYZ'],
      // Codes are accepted in any case and echoed upper case, in errors too.
      [`player_id=${player}&currency=ars`, 400, 'Invalid currency code: ARS'],
      [`player_id=${player}&currency=xyz`, 400, 'Invalid currency code: XYZ'],
      [`player_id=${player}&contract_end_date=2027-02-30`, 400, 'Invalid contract_end_date, must be in the format YYYY-MM-DD'],
      [`player_id=${player}&contract_end_date=30/06/2027`, 400, 'Invalid contract_end_date, must be in the format YYYY-MM-DD'],
      [`player_id=${unknownP}`, 404, 'Player not found'],
      [`player_id=${player}&target_club_id=${unknownC}`, 404, 'Club not found'],
      [`player_id=${unavailable}`, 403, 'This player is not available for analysis'],
    ];
    for (const [qs, status, error] of cases) {
      const res = await t.get(`/v1/expected_transfer_value?${qs}`);
      assert.equal(res.statusCode, status, qs);
      assert.deepEqual(json(res), { error }, qs);
    }
  });
});

describe('future transfer value', () => {
  test('every field of SPEC.md with its type', async () => {
    const res = await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club });
    assert.equal(res.statusCode, 200);
    const b = json(res);
    assert.equal(b.currency, 'EUR');
    assert.ok(Number.isInteger(b.future_transfer_value) && b.future_transfer_value === b.future_transfer_value_in_eur);
    assert.ok(CATEGORIES.includes(b.value_category));
    const p = b.probabilities_of_different_outcomes.probabilities;
    assert.deepEqual(Object.keys(p).sort(), [...CATEGORIES].sort());
    const sum = Object.values(p as Record<string, number>).reduce((a, x) => a + x, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9);
    for (const v of Object.values(p as Record<string, number>)) assert.ok(v >= 0 && v <= 1);
    assert.ok(Number.isInteger(b.probabilities_of_different_outcomes.sample_size));
    assert.equal(b.explanations.simulation_years, 3);
    assert.equal(typeof b.explanations.over_thirthy_years, 'boolean');
    const sim = b.explanations.similar_players;
    assert.ok(sim.length > 0 && sim.length <= 10);
    for (const x of sim) {
      assert.equal(typeof x.name, 'string');
      for (const k of ['initial_value', 'initial_rating', 'initial_potential', 'later_transfer_value', 'age']) assert.ok(Number.isInteger(x[k]), k);
      assert.match(x.season, /^\d{4}\/\d{4}$/);
      assert.equal(typeof x.position, 'string');
      assert.equal(typeof x.best_role, 'string');
    }
    assert.ok(b.future_transfer_value_range.low <= b.future_transfer_value_range.high);
  });

  test('label and number agree: the category is the band of future value / baseline, for many players and baselines', async () => {
    const s = t.runtime.world.current();
    const players = [...s.squads.values()].flat().filter((id) => s.players.get(id)!.analysis_available).sort().slice(0, 60);
    let checked = 0;
    for (const [i, id] of players.entries()) {
      const given = [undefined, 1_000_000 + 7_919 * i, 20_000_000 + 104_729 * i][i % 3];
      const res = await t.post('/v1/get_future_transfer_value', { player_id: id, club_id: club, ...(given === undefined ? {} : { expected_transfer_value: given }) });
      assert.equal(res.statusCode, 200, res.body);
      const b = json(res);
      // Without a fee the baseline is his expected fee on a neutral market (no buyer named).
      const baseline = given ?? json(await t.get(`/v1/expected_transfer_value?player_id=${id}`)).expected_transfer_value_in_eur;
      const ratio = b.future_transfer_value_in_eur / baseline;
      const band = bandOf(ratio);
      // The fee endpoint rounds its baseline to the euro: a ratio within that of a band edge could sit either side.
      if (given === undefined && BANDS.some(([, min]) => Math.abs(ratio - min) < 1e-6)) continue;
      assert.equal(b.value_category, band, `${id}: ${b.future_transfer_value_in_eur} / ${baseline} = ${ratio}`);
      const p = b.probabilities_of_different_outcomes.probabilities as Record<string, number>;
      assert.ok(Math.abs(CATEGORIES.reduce((a, c) => a + p[c], 0) - 1) < 1e-9, id);
      const k = CATEGORIES.indexOf(b.value_category);
      const above = CATEGORIES.slice(0, k).reduce((a, c) => a + p[c], 0);
      assert.ok(above <= 0.5 + 1e-9 && above + p[b.value_category] >= 0.5 - 1e-9, `${id}: the median's band holds the 50% point`);
      assert.ok(b.future_transfer_value_range.low <= b.future_transfer_value && b.future_transfer_value <= b.future_transfer_value_range.high, id);
      checked++;
    }
    assert.ok(checked >= 50, `${checked} checked`);
  });

  test('the baseline frames the bands but never moves the value', async () => {
    const own = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club }));
    for (const fee of [0, 1, 5_000_000, 1e12]) {
      const b = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: fee }));
      assert.deepEqual([b.future_transfer_value, b.future_transfer_value_range], [own.future_transfer_value, own.future_transfer_value_range], `fee ${fee}`);
    }
    const zero = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: 0 }));
    assert.equal(zero.value_category, 'Elite Prospect');
    const huge = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: 1e12 }));
    assert.equal(huge.value_category, 'Major decline');
  });

  test('the baseline is his expected fee with no buyer named, at his own club and elsewhere', async () => {
    const s = t.runtime.world.current();
    // The strongest club's players: a rich buyer's price for them would be far above the plain expected fee.
    const rich = [...s.squads.entries()].map(([id, squad]) => ({ id, squad: squad.filter((p) => s.players.get(p)!.analysis_available) }))
      .filter((c) => c.squad.length > 0 && s.analysisLeagueOfClub.has(c.id));
    let checked = 0;
    for (const c of rich.slice(0, 6)) {
      const p = c.squad[0];
      const plain = json(await t.get(`/v1/expected_transfer_value?player_id=${p}`)).expected_transfer_value_in_eur as number;
      const atOwn = json(await t.post('/v1/get_future_transfer_value', { player_id: p, club_id: c.id }));
      const asGiven = json(await t.post('/v1/get_future_transfer_value', { player_id: p, club_id: c.id, expected_transfer_value: plain }));
      assert.equal(atOwn.value_category, asGiven.value_category, p);
      assert.equal(atOwn.value_category, bandOf(atOwn.future_transfer_value_in_eur / plain), p);
      const elsewhere = rich.find((o) => o.id !== c.id)!.id;
      const there = json(await t.post('/v1/get_future_transfer_value', { player_id: p, club_id: elsewhere }));
      assert.equal(there.value_category, bandOf(there.future_transfer_value_in_eur / plain), p);
      checked++;
    }
    assert.ok(checked >= 3);
  });

  test('a given baseline fee in another currency; amounts follow the currency', async () => {
    const eur = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: 10_000_000 }));
    const gbp = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: 10_000_000, currency_code: 'gbp' }));
    assert.equal(gbp.currency, 'GBP');
    // The value is the same; 10M GBP is more than 10M EUR, so the GBP baseline frames it lower.
    assert.equal(gbp.future_transfer_value_in_eur, eur.future_transfer_value_in_eur);
    const mass = (b: { probabilities_of_different_outcomes: { probabilities: Record<string, number> } }) =>
      CATEGORIES.reduce((a, c, i) => a + i * b.probabilities_of_different_outcomes.probabilities[c], 0);
    assert.ok(mass(gbp) >= mass(eur));
  });

  test('the largest accepted fee, in the currencies with the smallest and largest rates, gives whole amounts', async () => {
    for (const code of extremeRateCurrencies(t.runtime.deps.rates())) {
      const res = await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: MONEY_INPUT_MAX, currency_code: code });
      assert.equal(res.statusCode, 200, `${code}: ${res.body}`);
      const b = json(res);
      assert.equal(b.currency, code);
      for (const k of ['future_transfer_value', 'future_transfer_value_in_eur']) assert.ok(Number.isInteger(b[k]) && b[k] > 0, `${code} ${k} ${b[k]}`);
      for (const k of ['low', 'high']) assert.ok(Number.isInteger(b.future_transfer_value_range[k]), `${code} range.${k}`);
      assert.deepEqual(hugeNumbersIn(res.body), [], code);
    }
  });

  test('errors, in the order of the body table', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{}, 400, 'player_id is required'],
      [{ player_id: 5 }, 400, 'Invalid player_id'],
      [{ player_id: player }, 400, 'club_id is required'],
      [{ player_id: player, club_id: 'C1' }, 400, 'Invalid club_id'],
      [{ player_id: player, club_id: club, expected_transfer_value: -1 }, 400, 'expected_transfer_value must be a non-negative number'],
      [{ player_id: player, club_id: club, expected_transfer_value: '100' }, 400, 'expected_transfer_value must be a non-negative number'],
      [{ player_id: player, club_id: club, expected_transfer_value: 1.7e308, currency_code: 'GBP' }, 400, 'expected_transfer_value is out of allowed range'],
      [{ player_id: player, club_id: club, expected_transfer_value: MONEY_INPUT_MAX * (1 + 1e-15) }, 400, 'expected_transfer_value is out of allowed range'],
      // JSON.parse turns a literal past double range into Infinity: too large, not malformed.
      [`{"player_id":"${player}","club_id":"${club}","expected_transfer_value":1e400}`, 400, 'expected_transfer_value is out of allowed range'],
      [`{"player_id":"${player}","club_id":"${club}","expected_transfer_value":-1e400}`, 400, 'expected_transfer_value must be a non-negative number'],
      [{ player_id: player, club_id: club, expected_transfer_value: 1e16, currency_code: 12 }, 400, 'expected_transfer_value is out of allowed range'],
      [{ player_id: player, club_id: club, currency_code: 12 }, 400, 'currency_code must be a string'],
      [{ player_id: player, club_id: club, currency_code: 'EURO' }, 400, 'Invalid currency code: EURO'],
      [{ player_id: player, club_id: club, currency_code: 'euro' }, 400, 'Invalid currency code: EURO'],
      [{ player_id: player, club_id: club, currency_code: 'xyz' }, 400, 'Invalid currency code: XYZ'],
      [{ player_id: `P${'0'.repeat(26)}`, club_id: club }, 404, 'Player not found'],
      [{ player_id: player, club_id: `C${'0'.repeat(26)}` }, 404, 'Club not found'],
      [{ player_id: unavailable, club_id: club }, 403, 'This player is not available for analysis'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.post('/v1/get_future_transfer_value', body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.deepEqual(json(res), { error }, JSON.stringify(body));
    }
  });
});

describe('contract, drivers and warnings (third round)', () => {
  const asOf = () => t.runtime.world.current().asOf;
  const monthsAfter = (iso: string, months: number) => {
    const d = new Date(`${iso}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() + months);
    return d.toISOString().slice(0, 10);
  };

  test('the fee answer names the contract it used; fewer months never raise it; an ended contract is a free transfer', async () => {
    const plain = json(await t.get(`/v1/expected_transfer_value?player_id=${player}`));
    assert.ok(plain.contract_end_date === null || /^\d{4}-\d{2}-\d{2}$/.test(plain.contract_end_date));
    assert.ok(Array.isArray(plain.warnings));
    let prev = Infinity;
    for (const months of [60, 48, 36, 24, 12, 6, 1]) {
      const end = monthsAfter(asOf(), months);
      const b = json(await t.get(`/v1/expected_transfer_value?player_id=${player}&contract_end_date=${end}`));
      assert.equal(b.contract_end_date, end);
      assert.ok(b.expected_transfer_value_in_eur <= prev, `${months} months: ${b.expected_transfer_value_in_eur} > ${prev}`);
      assert.ok(!b.warnings.some((w: { code: string }) => w.code === 'free_agent'));
      prev = b.expected_transfer_value_in_eur;
    }
    for (const end of [asOf(), monthsAfter(asOf(), -3)]) {
      const b = json(await t.get(`/v1/expected_transfer_value?player_id=${player}&contract_end_date=${end}`));
      assert.equal(b.expected_transfer_value, 0);
      assert.deepEqual(b.expected_transfer_value_range, { low: 0, high: 0 });
      const w = b.warnings.find((x: { code: string }) => x.code === 'free_agent');
      assert.ok(w, JSON.stringify(b.warnings));
      assert.ok(w.message.includes(end) && w.message.includes(asOf()), w.message);
    }
  });

  test('future value: baseline is the neutral fee, drivers multiply to the median, already_at_club at his own club', async () => {
    const s = t.runtime.world.current();
    const ownClub = [...s.squads.entries()].find(([, squad]) => squad.includes(player))![0];
    const fee = json(await t.get(`/v1/expected_transfer_value?player_id=${player}`)).expected_transfer_value_in_eur;
    for (const clubId of [club, ownClub]) {
      const b = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: clubId }));
      assert.ok(Math.abs(b.baseline_value_in_eur - fee) <= 1, `${b.baseline_value_in_eur} vs ${fee}`);
      assert.ok(b.drivers.length > 0);
      const factors = ['age', 'current_level', 'form', 'playing_time', 'club_level', 'league', 'contract'];
      for (const d of b.drivers) assert.ok(factors.includes(d.factor) && Number(d.effect.toFixed(3)) === d.effect, JSON.stringify(d));
      const product = b.drivers.reduce((a: number, d: { effect: number }) => a * d.effect, b.baseline_value_in_eur);
      assert.ok(Math.abs(product / b.future_transfer_value_in_eur - 1) <= 0.01, `${product} vs ${b.future_transfer_value_in_eur}`);
      assert.equal(b.warnings.some((w: { code: string }) => w.code === 'already_at_club'), clubId === ownClub, clubId);
    }
    const given = json(await t.post('/v1/get_future_transfer_value', { player_id: player, club_id: club, expected_transfer_value: 12_345_678 }));
    assert.equal(given.baseline_value_in_eur, 12_345_678);
  });

  test('warnings on impact, ROI, squad analysis and the league forecast', async () => {
    const s = t.runtime.world.current();
    const ownClub = [...s.squads.entries()].find(([, squad]) => squad.includes(player))![0];
    const impact = json(await t.post('/v1/get_sportive_impact', { player_id: player, club_id: ownClub }));
    assert.ok(impact.warnings.some((w: { code: string; message: string }) => w.code === 'already_at_club' && w.message.includes(s.clubs.get(ownClub)!.name)));
    const roi = json(await t.post('/v1/get_roi_analysis', { player_id: player, club_id: club }));
    assert.deepEqual(roi.warnings.filter((w: { code: string }) => w.code === 'already_at_club'), []);
    assert.deepEqual(roi.sportive_impact.warnings, json(await t.post('/v1/get_sportive_impact', { player_id: player, club_id: club })).warnings);
    const squad = json(await t.post('/v1/squad_analysis', { club_id: club }));
    assert.ok(Array.isArray(squad.warnings));
    const league = [...s.clubsOfLeague.keys()].sort()[0];
    const forecast = json(await t.get(`/v1/league_forecast?competition_id=${league}`));
    assert.ok(Array.isArray(forecast.warnings), JSON.stringify(forecast).slice(0, 200));
  });
});
