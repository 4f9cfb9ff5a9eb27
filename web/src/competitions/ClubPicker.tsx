import { useId } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { loadClubs, loadCompetitions } from './data';
import { competitionName } from './names';

/** Competition, then club: two labelled selects, the clubs asked for only once a competition is chosen. */
export function ClubPicker({ competition, club, onCompetition, onClub }: { competition: string; club: string; onCompetition: (c: string) => void; onClub: (id: string, name: string) => void }) {
  const ids = useId();
  const comps = useApi(loadCompetitions, []);
  const clubs = useApi(() => (competition ? loadClubs(competition) : Promise.resolve([])), [competition]);
  return (
    <>
      <label for={`${ids}-comp`}>
        Competition
        <select id={`${ids}-comp`} value={competition} onChange={(e) => onCompetition(e.currentTarget.value)} disabled={comps.state !== 'ok'}>
          <option value="">{comps.state === 'loading' ? 'Loading…' : 'Choose…'}</option>
          {comps.state === 'ok' && comps.data.map((c) => <option key={c} value={c}>{competitionName(c)}</option>)}
        </select>
      </label>
      <label for={`${ids}-club`}>
        Club
        <select
          id={`${ids}-club`}
          value={club}
          disabled={!competition || clubs.state !== 'ok'}
          onChange={(e) => {
            const id = e.currentTarget.value;
            const name = clubs.state === 'ok' ? (clubs.data.find((c) => c.service_id === id)?.name ?? '') : '';
            onClub(id, name);
          }}
        >
          <option value="">{competition && clubs.state === 'loading' ? 'Loading…' : 'Choose…'}</option>
          {clubs.state === 'ok' && clubs.data.map((c) => <option key={c.service_id} value={c.service_id}>{c.name}</option>)}
        </select>
      </label>
      {comps.state === 'error' && <p class="error" role="alert">{comps.message}</p>}
      {clubs.state === 'error' && <p class="error" role="alert">{clubs.message}</p>}
    </>
  );
}
