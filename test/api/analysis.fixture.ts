import { startTestApp, type TestApp } from '../helpers/app.js';

/** The app on the demo world, a league's last club and the best analysable player of its first club, and a player without analysis data. */
export async function startAnalysisApp(): Promise<{ t: TestApp; club: string; player: string; unavailable: string }> {
  const t = await startTestApp();
  const s = t.runtime.world.current();
  const league = [...s.clubsOfLeague.keys()].sort()[0];
  const clubs = s.clubsOfLeague.get(league)!;
  const club = clubs[clubs.length - 1];
  // A good player from another club of the same league, under contract (one whose contract has ended is a free agent: no fee).
  const rated = (id: string) => s.ratings.get(id)?.at(-1)?.rating ?? 0;
  const underContract = (id: string) => (s.contracts.get(id)?.end_date ?? '') > s.asOf;
  const player = s.squads.get(clubs[0])!.filter((id) => s.players.get(id)!.analysis_available && underContract(id)).sort((a, b) => rated(b) - rated(a))[0];
  const unavailable = [...s.squads.values()].flat().find((id) => !s.players.get(id)!.analysis_available)!;
  return { t, club, player, unavailable };
}
