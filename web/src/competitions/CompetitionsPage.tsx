import { useTitle } from '../ui/title';
import { useApi } from '../api/use-api';
import { links } from '../router';
import { Show } from '../ui/states';
import { LeagueForecastLink } from './LeagueForecastLink';
import { loadClubs, loadCompetitions } from './data';
import { competitionName } from './names';

export function CompetitionsPage() {
  const loaded = useApi(loadCompetitions, []);
  useTitle('Search');
  return (
    <main id="main">
      <h1>Competitions</h1>
      <p class="lead">Pick a competition for its clubs and, for a league, its forecast table; then a club for its squad, its what-ifs and its players.</p>
      <Show loaded={loaded} what="competitions">
        {(ids) => (
          <ul class="tiles">
            {ids.map((id) => (
              <li key={id}>
                <a href={links.competition(id)}>{competitionName(id)}</a>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </main>
  );
}

export function CompetitionPage({ id }: { id: string }) {
  const loaded = useApi(() => loadClubs(id), [id]);
  useTitle(competitionName(id));
  return (
    <main id="main">
      <nav aria-label="Breadcrumb" class="crumbs">
        <a href={links.competitions()}>Competitions</a> › <span>{competitionName(id)}</span>
      </nav>
      <h1>{competitionName(id)}</h1>
      {loaded.state === 'ok' && loaded.data.length > 0 ? <LeagueForecastLink competition={id} club={loaded.data[0]} /> : <p class="page-links" />}
      <Show loaded={loaded} what="clubs">
        {(clubs) =>
          clubs.length === 0 ? (
            <p>No club plays in this competition this season.</p>
          ) : (
            <ul class="tiles">
              {clubs.map((c) => (
                <li key={c.service_id}>
                  <a href={links.club(c.service_id)}>{c.name}</a>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </main>
  );
}
