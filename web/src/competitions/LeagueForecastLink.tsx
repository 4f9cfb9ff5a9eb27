import { useApi } from '../api/use-api';
import { links } from '../router';
import { loadClubLeague } from './data';
import { competitionName } from './names';

/**
 * A link to the league forecast of `club`'s domestic league, shown once the API confirms which
 * league that is. With `competition` given, only when the club plays its league there (so a cup's
 * page offers none). Nothing while asking or when there is no league: the link is an extra.
 */
export function LeagueForecastLink({ club, competition }: { club: { service_id: string; name: string }; competition?: string }) {
  const league = useApi(() => loadClubLeague(club.service_id, club.name), [club.service_id, club.name]);
  if (league.state !== 'ok' || league.data === null) return null;
  if (competition !== undefined && league.data !== competition) return null;
  return (
    <p class="page-links">
      <a class="button-link" href={links.forecast(league.data)}>
        League forecast{competition === undefined ? `: ${competitionName(league.data)}` : ''}
      </a>
    </p>
  );
}
