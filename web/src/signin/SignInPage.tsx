import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { signIn } from '../session/session';
import { useTitle } from '../ui/title';
import { ErrorBox } from '../ui/states';

/** Email and password (a new key from /v1/auth/login) or a pasted key; either way only sessionStorage holds it. */
export function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useTitle('Sign in');

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Sign-in failed.');
    } finally {
      setBusy(false);
    }
  };

  const login = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const r = await api.POST('/v1/auth/login', { body: { email: email.trim(), password } });
      if (r.response.status === 401) throw new Error('The email or password is not valid.');
      const data = unwrap(r);
      setPassword('');
      signIn(data.api_key, email);
    });
  };

  const useKey = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const k = key.trim();
      // One call proves the key before the tab keeps it, so a refused key leaves this view (and its
      // alert) in place: signing in first would swap the view away and back, losing the message.
      const res = await fetch('/v1/competitions', { headers: { 'x-api-key': k } });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: unknown };
        const said = typeof body.error === 'string' ? body.error : `The server answered ${res.status}`;
        throw new Error(res.status === 401 ? `This API key is not valid: ${said}.` : `${said}.`);
      }
      setKey('');
      signIn(k);
    });
  };

  return (
    <main class="signin" id="main">
      <h1>Touchline Studio</h1>
      <p class="lead">Player values, futures and squad what-ifs for recruitment staff.</p>
      {error && <ErrorBox message={error} />}
      <div class="signin-forms">
        <form onSubmit={login} class="card" aria-labelledby="signin-login">
          <h2 id="signin-login">Sign in</h2>
          <label>
            Email
            <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Password
            <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <p class="hint">On the demo world, <code>npm start</code> prints a demo login.</p>
        </form>
        <form onSubmit={useKey} class="card" aria-labelledby="signin-key">
          <h2 id="signin-key">Or use an API key</h2>
          <label>
            API key
            <input type="password" name="api-key" autocomplete="off" spellcheck={false} required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            Use this key
          </button>
          <p class="hint">The key stays in this tab only and is forgotten when you sign out or close it.</p>
        </form>
      </div>
    </main>
  );
}
