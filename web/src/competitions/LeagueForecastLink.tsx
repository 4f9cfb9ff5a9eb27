import { useApi } from '../api/use-api';
import { links } from '../router';
import { loadClubLeague } from './data';
import { competitionName } from './names';

/**
 * A link to the league forecast of `club`'s domestic league, shown once the API confirms which
 * league that is. With `competition` given, only when the club plays its league there (so a cup's
 * page offers none). Its line is held while asking, so the page below does not move when it comes.
 */
export function LeagueForecastLink({ club, competition }: { club: { service_id: string; name: string }; competition?: string }) {
  const league = useApi(() => loadClubLeague(club.service_id, club.name), [club.service_id, club.name]);
  const id = league.state === 'ok' ? league.data : null;
  const show = id !== null && (competition === undefined || id === competition);
  return (
    <p class="page-links">
      {show && (
        <a class="button-link" href={links.forecast(id, competition === undefined ? club.service_id : undefined)}>
          League forecast{competition === undefined ? `: ${competitionName(id)}` : ''}
        </a>
      )}
    </p>
  );
}
