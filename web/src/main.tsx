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
import { CURRENCIES, setCurrency, useAccountCurrency, usePickedCurrency } from './ui/currency';
import './styles.css';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => {
      setRoute(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
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
      return <ScoutingPage query={route.query} />;
    case 'player':
      return <PlayerPage key={route.id} id={route.id} />;
    default:
      return (
        <main id="main">
          <h1>Page not found</h1>
          <p>
            <a href={links.competitions()}>Go to the competitions</a>
          </p>
        </main>
      );
  }
}

/** The fragment names pages here, so the skip link moves focus itself instead of changing the page. */
function skipToContent(e: Event) {
  e.preventDefault();
  const main = document.getElementById('main');
  if (!main) return;
  main.setAttribute('tabindex', '-1');
  main.focus();
}

function App() {
  const route = useRoute();
  const signedIn = useSignedIn();
  const picked = usePickedCurrency();
  const account = useAccountCurrency();
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
          <nav aria-label="Main" class="top-nav">
            <SearchBox />
            <a href={links.competitions()}>Competitions</a>
            <a href={links.scouting()}>Scouting list</a>
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
          </nav>
        )}
      </header>
      <RateLimitBanner />
      {signedIn ? <Page route={route} /> : <SignInPage />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
