/**
 * The answers' fingerprint: a fixed list of requests over every endpoint, answered by the real app on
 * the demo world (seed 42), kept as `status + body` each. test/api/answers-fingerprint.test.ts holds
 * the answers to the committed test/fixtures/answers-fingerprint.json, so a change of any answer is a
 * visible diff; `bench/answers-fingerprint.ts --update` writes the file anew after an intended change.
 *
 * The ids it asks about are found through the API itself (first leagues, clubs and players in the
 * answers' own order), so the list stays the same for the same world and seed.
 */
import type { TestApp } from './app.js';

export const ANSWERS_FINGERPRINT = new URL('../fixtures/answers-fingerprint.json', import.meta.url).pathname;

interface Request {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'HEAD';
  readonly url: string;
  readonly body?: unknown;
  /** null: no key; undefined: the test key. */
  readonly key?: string | null;
}

export interface Answer {
  readonly name: string;
  readonly method: string;
  readonly url: string;
  readonly body?: unknown;
  readonly status: number;
  readonly answer: string;
}

type Json = Record<string, unknown>;

async function json(t: TestApp, url: string): Promise<Json> {
  const res = await t.get(url);
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json() as Json;
}

/** Ids to ask about, found through the API in its own order. */
async function pickIds(t: TestApp) {
  const competitions = (await json(t, '/v1/competitions')).competitions as string[];
  const league = competitions[0]!;
  const league2 = competitions[competitions.length - 1]!;
  const clubs = (await json(t, `/v1/get_clubs_in_competition?competition_id=${league}`)).clubs as Json[];
  const club = clubs[0]!.service_id as string;
  const club2 = clubs[clubs.length - 1]!.service_id as string;
  const squad = (await json(t, `/v1/get_players_at_club?club_id=${club}&analysis_available_only=true`)).players as Json[];
  const other = (await json(t, `/v1/get_players_at_club?club_id=${club2}&analysis_available_only=true`)).players as Json[];
  const all = (await json(t, `/v1/get_players_at_club?club_id=${club}`)).players as Json[];
  const unanalysable = all.find((p) => !squad.some((s) => s.service_id === p.service_id));
  const player = squad[0]!.service_id as string;
  const player2 = other[0]!.service_id as string;
  const player3 = other[Math.min(3, other.length - 1)]!.service_id as string;
  // the actual squad's echo, edited: the last entry left out
  const actual = await t.post('/v1/squad_analysis', { club_id: club });
  const echoed = (actual.json() as Json).squad as Json[];
  const customSquad = echoed.slice(0, -1);
  return { league, league2, club, club2, player, player2, player3, unanalysable: (unanalysable?.service_id as string | undefined) ?? null, customSquad, squad };
}

const UNKNOWN_PLAYER = 'P00000000000000000000000000';
const UNKNOWN_CLUB = 'C00000000000000000000000000';

async function requests(t: TestApp): Promise<Request[]> {
  const id = await pickIds(t);
  const get = (name: string, url: string, key?: string | null): Request => ({ name, method: 'GET', url, key });
  const post = (name: string, url: string, body: unknown, key?: string | null): Request => ({ name, method: 'POST', url, body, key });
  const list: Request[] = [
    get('health', '/v1/health', null),
    get('competitions', '/v1/competitions'),
    get('competitions no key', '/v1/competitions', null),
    get('competitions bad key', '/v1/competitions', 'tl_nope'),
    get('clubs in league', `/v1/get_clubs_in_competition?competition_id=${id.league}`),
    get('clubs alias', `/v1/get_clubs_in_competition?competition=${id.league2}`),
    get('clubs missing', '/v1/get_clubs_in_competition'),
    get('clubs unknown', '/v1/get_clubs_in_competition?competition_id=NOPE_LEAGUE'),
    get('players at club', `/v1/get_players_at_club?club_id=${id.club}`),
    get('players at club analysable', `/v1/get_players_at_club?club_id=${id.club2}&analysis_available_only=1`),
    get('players at club bad bool', `/v1/get_players_at_club?club_id=${id.club}&analysis_available_only=yes`),
    get('players at club bad id', '/v1/get_players_at_club?club_id=nope'),
    get('positions', '/v1/player_positions'),
    get('positions with player', `/v1/player_positions?player_id=${id.player}`),
    get('roles', '/v1/role_description'),
    get('role bad', '/v1/role_description?role=NOPE'),
    post('query club', '/v1/query_club', { service_id: id.club }),
    post('query club none', '/v1/query_club', {}),
    post('query player', '/v1/query_player', { service_id: id.player }),
    post('query player bad registry', '/v1/query_player', { registry_a_id: '12' }),
    post('query player not object', '/v1/query_player', '[1,2]'),
    get('player info', `/v1/player_info?player_id=${id.player}`),
    get('player info unknown', `/v1/player_info?player_id=${UNKNOWN_PLAYER}`),
    get('career path', `/v1/career_path?player_id=${id.player2}`),
    get('playing time', `/v1/playing_time?player_id=${id.player}`),
    get('playing time season', `/v1/playing_time?player_id=${id.player}&season=2024/2025`),
    get('playing time bad season', `/v1/playing_time?player_id=${id.player}&season=2024`),
    get('value history', `/v1/market_value_history?player_id=${id.player}`),
    get('value history GBP', `/v1/market_value_history?player_id=${id.player2}&currency=gbp`),
    get('fee', `/v1/expected_transfer_value?player_id=${id.player}`),
    get('fee USD to club', `/v1/expected_transfer_value?player_id=${id.player2}&target_club_id=${id.club}&currency=USD`),
    get('fee contract', `/v1/expected_transfer_value?player_id=${id.player3}&contract_end_date=2027-06-30&currency=chf`),
    get('fee bad currency', `/v1/expected_transfer_value?player_id=${id.player}&currency=XXX`),
    get('fee unknown club', `/v1/expected_transfer_value?player_id=${id.player}&target_club_id=${UNKNOWN_CLUB}`),
    post('future', '/v1/get_future_transfer_value', { player_id: id.player2, club_id: id.club }),
    post('future with fee GBP', '/v1/get_future_transfer_value', { player_id: id.player2, club_id: id.club, expected_transfer_value: 25_000_000, currency_code: 'GBP' }),
    post('future own club', '/v1/get_future_transfer_value', { player_id: id.player, club_id: id.club }),
    post('future bad fee', '/v1/get_future_transfer_value', { player_id: id.player, club_id: id.club, expected_transfer_value: -1 }),
    post('impact', '/v1/get_sportive_impact', { player_id: id.player2, club_id: id.club }),
    post('impact star', '/v1/get_sportive_impact', { player_id: id.player, club_id: id.club2 }),
    post('impact USD', '/v1/get_sportive_impact', { player_id: id.player3, club_id: id.club, currency_code: 'usd' }),
    post('roi', '/v1/get_roi_analysis', { player_id: id.player2, club_id: id.club }),
    post('roi fee and wage', '/v1/get_roi_analysis', { player_id: id.player2, club_id: id.club, expected_transfer_value: 30_000_000, annual_wage: 4_000_000 }),
    post('roi wage GBP', '/v1/get_roi_analysis', { player_id: id.player3, club_id: id.club, annual_wage: 2_500_000, currency_code: 'GBP' }),
    post('roi fee 0', '/v1/get_roi_analysis', { player_id: id.player3, club_id: id.club, expected_transfer_value: 0 }),
    post('roi bad wage', '/v1/get_roi_analysis', { player_id: id.player3, club_id: id.club, annual_wage: 'x' }),
    post('squad actual', '/v1/squad_analysis', { club_id: id.club }),
    post('squad actual JPY', '/v1/squad_analysis', { club_id: id.club2, currency_code: 'JPY' }),
    post('squad custom', '/v1/squad_analysis', { club_id: id.club, squad: id.customSquad }),
    post('squad bad entry', '/v1/squad_analysis', { club_id: id.club, squad: [{ player_id: id.player }] }),
    post('squad unknown player', '/v1/squad_analysis', { club_id: id.club, squad: [{ player_id: UNKNOWN_PLAYER, position: 'GK' }] }),
    get('forecast', `/v1/league_forecast?competition_id=${id.league}`),
    get('forecast GBP', `/v1/league_forecast?competition_id=${id.league2}&currency=GBP`),
    get('forecast missing', '/v1/league_forecast'),
    get('match', `/v1/match_forecast?home_club_id=${id.club}&away_club_id=${id.club2}`),
    get('match neutral', `/v1/match_forecast?home_club_id=${id.club2}&away_club_id=${id.club}&neutral=true`),
    get('match same club', `/v1/match_forecast?home_club_id=${id.club}&away_club_id=${id.club}`),
    get('ready', '/v1/ready', null),
    post('recommend', '/v1/recommend_signings', { club_id: id.club, position: 'CM' }),
    post('recommend filtered', '/v1/recommend_signings', { club_id: id.club2, position: 'cb', max_age: 27, limit: 5, currency_code: 'GBP' }),
    post('recommend bad position', '/v1/recommend_signings', { club_id: id.club, position: 'QB' }),
    get('search', '/v1/search?q=united'),
    get('search players', '/v1/search?q=mar&type=player&limit=5'),
    get('search empty', '/v1/search?q='),
    get('players list', '/v1/players?limit=5'),
    get('players list filtered', `/v1/players?competition_id=${id.league}&min_age=20&max_age=28&sort=market_value&limit=3&currency=USD`),
    get('players list bad sort', '/v1/players?sort=nope'),
    post('login bad', '/v1/auth/login', { email: 'nobody@example.com', password: 'wrong password here' }, null),
    get('unknown route', '/v1/nope'),
    get('openapi document', '/v1/openapi.json', null),
  ];
  if (id.unanalysable) list.push(post('roi not analysable', '/v1/get_roi_analysis', { player_id: id.unanalysable, club_id: id.club }));
  return list;
}

/** Every request of the list, answered by the app. */
export async function recordAnswers(t: TestApp): Promise<Answer[]> {
  const answers: Answer[] = [];
  const list = await requests(t);
  // the players list's next page, by the cursor of its first
  const first = await t.get('/v1/players?limit=5');
  const cursor = (first.json() as Json).next_cursor as string | null;
  if (cursor) list.push({ name: 'players list page 2', method: 'GET', url: `/v1/players?limit=5&cursor=${encodeURIComponent(cursor)}` });
  for (const r of list) {
    const res = r.method === 'GET' ? await t.get(r.url, r.key) : await t.post(r.url, r.body, r.key);
    answers.push({ name: r.name, method: r.method, url: r.url, body: r.body, status: res.statusCode, answer: res.body });
  }
  return answers;
}

/** The answers as the fixture file holds them. */
export function answersFile(answers: readonly Answer[]): string {
  return `${JSON.stringify(answers, null, 1)}\n`;
}

/** Every difference between two recordings, one readable paragraph each (none: the same answers). */
export function answerDifferences(before: readonly Answer[], after: readonly Answer[]): string[] {
  const byName = new Map(after.map((x) => [x.name, x]));
  const out: string[] = [];
  for (const x of before) {
    const y = byName.get(x.name);
    byName.delete(x.name);
    if (!y) out.push(`missing now: ${x.name}`);
    else if (x.url !== y.url || JSON.stringify(x.body) !== JSON.stringify(y.body)) out.push(`${x.name}: asked differently (${x.url} vs ${y.url})`);
    else if (x.status !== y.status || x.answer !== y.answer) {
      out.push(`${x.name}: ${x.method} ${x.url}\n  before ${x.status} ${x.answer.slice(0, 300)}\n  after  ${y.status} ${y.answer.slice(0, 300)}`);
    }
  }
  for (const name of byName.keys()) out.push(`new: ${name}`);
  return out;
}
