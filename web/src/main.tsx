import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onRateLimited } from './api/client';
import { CompetitionPage, CompetitionsPage } from './competitions/CompetitionsPage';
import { ForecastPage } from './forecast/ForecastPage';
import { PlayerPage } from './player/PlayerPage';
import { links, parseRoute, type Route } from './router';
import { currentKey, onSessionChange } from './session/session';
import { signOutAndRevoke } from './session/sign-out';
import { SignInPage } from './signin/SignInPage';
import { SquadPage } from './squad/SquadPage';
import { SearchBox } from './search/SearchBox';
import { ScoutingPage } from './scouting/ScoutingPage';
import { ComparePage } from './compare/ComparePage';
import { ForecastPickPage, SquadPickPage } from './competitions/PickPages';
import { RecommendPage } from './recommend/RecommendPage';
import { ShortlistPage } from './shortlist/ShortlistPage';
import { ListsPage } from './lists/ListsPage';
import { ShadowSquadPage } from './lists/ShadowSquadPage';
import { AccuracyPage } from './accuracy/AccuracyPage';
import { useTitle } from './ui/title';
import { CURRENCIES, setCurrency, useAccountCurrency, usePickedCurrency } from './ui/currency';
import './styles.css';

function useRoute(): Route {
  const [first] = useState(() => location.hash);
  const [route, setRoute] = useState(() => parseRoute(first));
  useEffect(() => {
    const on = () => {
      setRoute(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    addEventListener('hashchange', on);
    // The address may have changed between the first render and this listener (a link opened while
    // the page was still starting): read it again, or that change is lost.
    if (location.hash !== first) setRoute(parseRoute(location.hash));
    return () => removeEventListener('hashchange', on);
  }, [first]);
  return route;
}

function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(() => currentKey() !== null);
  useEffect(() => onSessionChange(() => setSignedIn(currentKey() !== null)), []);
  return signedIn;
}

/** The wait the API asked for, counted down, so a person knows when to try again. */
function RateLimitBanner() {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  useEffect(
    () =>
      onRateLimited((s) => {
        // The clock restarts with the wait: a stale `now` (from the last countdown) would add to it.
        const t = Date.now();
        setNow(t);
        setUntil(t + s * 1000);
      }),
    [],
  );
  useEffect(() => {
    if (until <= now) return;
    const t = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(t);
  }, [until, now]);
  const left = Math.ceil((until - now) / 1000);
  if (left <= 0) return null;
  return (
    <p class="banner" role="alert">
      Your plan's request limit is reached for the moment. Try again in {left} s; answers already shown stay.
    </p>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'competitions':
      return <CompetitionsPage />;
    case 'competition':
      return <CompetitionPage id={route.id} />;
    case 'club':
      return <SquadPage key={route.id} id={route.id} query={route.query} />;
    case 'forecast':
      return <ForecastPage key={route.id} id={route.id} club={route.query.get('club')} />;
    case 'scouting':
      // Keyed by the address: Back and Forward bring the form's fields back with the list.
      return <ScoutingPage key={route.query.toString()} query={route.query} />;
    case 'recommend':
      return <RecommendPage />;
    case 'shortlist':
      return <ShortlistPage />;
    case 'lists':
      return <ListsPage query={route.query} />;
    case 'shadow':
      return <ShadowSquadPage />;
    case 'compare':
      return <ComparePage query={route.query} />;
    case 'squads':
      return <SquadPickPage />;
    case 'forecasts':
      return <ForecastPickPage />;
    case 'accuracy':
      return <AccuracyPage />;
    case 'player':
      return <PlayerPage key={route.id} id={route.id} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  useTitle('Page not found');
  return (
    <main id="main">
      <h1>Page not found</h1>
      <p>
        <a href={links.competitions()}>Go to the competitions</a>
      </p>
    </main>
  );
}

/** The fragment names pages here, so the skip link moves focus itself instead of changing the page. */
function skipToContent(e: Event) {
  e.preventDefault();
  const main = document.getElementById('main');
  if (!main) return;
  main.setAttribute('tabindex', '-1');
  main.focus();
}

const NAV: ReadonlyArray<readonly [string, () => string]> = [
  ['Search', links.competitions],
  ['Scouting', () => links.scouting()],
  ['Recommend', links.recommend],
  ['Shortlist', links.shortlist],
  ['Lists', () => links.lists()],
  ['Compare', () => links.compare()],
  ['Squad', links.squads],
  ['Forecast', links.forecasts],
  ['Accuracy', links.accuracy],
];

/** The navigation entry a page belongs to, marked as the current one. */
function activeNav(route: Route): string | null {
  switch (route.page) {
    case 'competitions':
    case 'competition':
      return 'Search';
    case 'scouting':
      return 'Scouting';
    case 'recommend':
      return 'Recommend';
    case 'shortlist':
      return 'Shortlist';
    case 'lists':
    case 'shadow':
      return 'Lists';
    case 'compare':
      return 'Compare';
    case 'squads':
    case 'club':
      return 'Squad';
    case 'forecasts':
    case 'forecast':
      return 'Forecast';
    case 'accuracy':
      return 'Accuracy';
    default:
      return null;
  }
}

function App() {
  const route = useRoute();
  const signedIn = useSignedIn();
  const picked = usePickedCurrency();
  const account = useAccountCurrency();
  const [menu, setMenu] = useState(false);
  const active = activeNav(route);
  return (
    <>
      <a class="skip" href="#main" onClick={skipToContent}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={links.competitions()}>
          Touchline Studio
        </a>
        {signedIn && (
          <button type="button" class="menu-toggle secondary" aria-expanded={menu} aria-controls="top-menu" onClick={() => setMenu(!menu)}>
            Menu
          </button>
        )}
        {signedIn && (
          <div id="top-menu" class={menu ? 'top-menu open' : 'top-menu'}>
            <nav aria-label="Main" class="top-nav">
              {NAV.map(([name, to]) => (
                <a key={name} href={to()} aria-current={active === name ? 'page' : undefined} onClick={() => setMenu(false)}>
                  {name}
                </a>
              ))}
            </nav>
            <div class="top-tools">
              <SearchBox label="Search players, teams and leagues" />
              <label class="currency">
                Currency
                <select value={picked ?? ''} onChange={(e) => setCurrency(e.currentTarget.value)}>
                  <option value="">{account ? `Account's (${account})` : "Account's"}</option>
                  {CURRENCIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" class="secondary" onClick={() => void signOutAndRevoke()}>
                Sign out
              </button>
            </div>
          </div>
        )}
      </header>
      <RateLimitBanner />
      {signedIn ? <Page route={route} /> : <SignInPage />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
