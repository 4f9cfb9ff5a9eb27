import { useState } from 'preact/hooks';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { Show } from '../ui/states';
import { useTitle } from '../ui/title';
import { ClubPicker } from './ClubPicker';
import { loadCompetitions } from './data';
import { competitionName } from './names';

/** The Squad link: pick a club, open its squad page. */
export function SquadPickPage() {
  useTitle('Squad');
  const [competition, setCompetition] = useState('');
  return (
    <main id="main">
      <h1>Squad</h1>
      <p class="lead">Pick a club for its players, their depth chart and what-ifs.</p>
      <form class="card form-grid" onSubmit={(e) => e.preventDefault()}>
        <ClubPicker competition={competition} club="" onCompetition={setCompetition} onClub={(id) => id && (location.hash = links.club(id))} />
      </form>
    </main>
  );
}

/** The Forecast link: the leagues, each opening its simulated table. */
export function ForecastPickPage() {
  useTitle('Forecast');
  const comps = useApi(loadCompetitions, []);
  return (
    <main id="main">
      <h1>League forecasts</h1>
      <p class="lead">Each domestic league's expected table, with the title, European and relegation places marked.</p>
      <Show loaded={comps} what="competitions">
        {(ids) => (
          <ul class="tiles">
            {ids.map((id) => (
              <li key={id}>
                <a href={links.forecast(id)}>{competitionName(id)}</a>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </main>
  );
}
