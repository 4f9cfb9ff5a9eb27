import { useEffect, useId, useState } from 'preact/hooks';
import { ClubPicker } from '../competitions/ClubPicker';
import { useCurrency } from '../ui/currency';
import { formatMoney, formatPercent, formatRank } from '../ui/format';
import { ErrorBox, Loading } from '../ui/states';
import { loadRoi } from './data';

type Roi = Awaited<ReturnType<typeof loadRoi>>;

/** Amounts typed by a person: blank means "let the model decide"; separators are tolerated. */
export function parseAmount(text: string): number | null | 'invalid' {
  const t = text.replace(/[\s,_]/g, '');
  if (t === '') return null;
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(t);
  if (!m) return 'invalid';
  const scale = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1e3 : 1e6;
  return Math.round(Number(m[1]) * scale);
}

/** Pick a club, a fee and a wage: what the player adds on the pitch there and whether he pays back. */
export function ForMyClub({ playerId, currency }: { playerId: string; currency: string | null }) {
  const shown = useCurrency();
  const ids = useId();
  const [competition, setCompetition] = useState('');
  const [club, setClub] = useState({ id: '', name: '' });
  const [fee, setFee] = useState('');
  const [wage, setWage] = useState('');
  const [state, setState] = useState<{ s: 'idle' } | { s: 'loading' } | { s: 'error'; message: string } | { s: 'ok'; roi: Roi; club: string }>({ s: 'idle' });

  // A result in another currency would sit under this currency's labels.
  useEffect(() => setState({ s: 'idle' }), [currency]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const f = parseAmount(fee);
    const w = parseAmount(wage);
    if (!club.id) return setState({ s: 'error', message: 'Choose a club first.' });
    if (f === 'invalid' || w === 'invalid') return setState({ s: 'error', message: 'Amounts are numbers such as 25000000, 25m or 850k.' });
    setState({ s: 'loading' });
    try {
      setState({ s: 'ok', roi: await loadRoi({ playerId, clubId: club.id, fee: f, wage: w, currency }), club: club.name });
    } catch (err) {
      setState({ s: 'error', message: err instanceof Error ? err.message : 'The analysis failed.' });
    }
  };

  return (
    <section class="card for-my-club" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>For my club</h2>
      <form onSubmit={submit} class="form-grid">
        <ClubPicker
          competition={competition}
          club={club.id}
          onCompetition={(c) => {
            setCompetition(c);
            setClub({ id: '', name: '' });
          }}
          onClub={(id, name) => setClub({ id, name })}
        />
        <label for={`${ids}-fee`}>
          Fee ({shown})
          <input id={`${ids}-fee`} inputMode="decimal" placeholder="model's fee" value={fee} onInput={(e) => setFee(e.currentTarget.value)} />
        </label>
        <label for={`${ids}-wage`}>
          Annual wage ({shown})
          <input id={`${ids}-wage`} inputMode="decimal" placeholder="none" value={wage} onInput={(e) => setWage(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={state.s === 'loading'}>
          Analyse the signing
        </button>
      </form>
      <div class="result" aria-live="polite">
        {state.s === 'loading' && <Loading what="the 3-season simulation" />}
        {state.s === 'error' && <ErrorBox message={state.message} />}
        {state.s === 'ok' && <RoiResult roi={state.roi} club={state.club} />}
      </div>
    </section>
  );
}

function RoiResult({ roi, club }: { roi: Roi; club: string }) {
  const m = (v: number) => formatMoney(v, roi.currency);
  const sim = roi.sportive_impact.simulation;
  return (
    <dl class="facts">
      <div>
        <dt>Expected league position at {club}</dt>
        <dd>
          {formatRank(sim.original_expected_position)} → {formatRank(sim.new_expected_position)}
        </dd>
      </div>
      <div>
        <dt>Playing time</dt>
        <dd>{formatPercent(roi.sportive_impact.playing_time_percentage)} of matches</dd>
      </div>
      <div>
        <dt>Sportive impact (3 seasons)</dt>
        <dd>{m(roi.sportive_impact.on_field_value)}</dd>
      </div>
      <div>
        <dt>Value in 3 years</dt>
        <dd>{m(roi.future_transfer_value.future_transfer_value)}</dd>
      </div>
      <div>
        <dt>Cost: fee + 3 years of wages</dt>
        <dd>
          {m(roi.expected_transfer_value)} + 3 × {m(roi.annual_wage ?? 0)}
        </dd>
      </div>
      <div>
        <dt>Total value created</dt>
        <dd>{m(roi.total_value_created)}</dd>
      </div>
      <div class="headline">
        <dt>Return on investment</dt>
        <dd>{roi.return_on_investment === null ? 'no cost, no ratio' : `${roi.return_on_investment.toFixed(2)}×`}</dd>
      </div>
    </dl>
  );
}
