import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE_TEXT } from '../../admin/password-rule.js';
import { ErrorNote, Field, useApi } from '../ui.js';

interface SignInMethods { enabled: boolean; name: string | null; local_passwords: boolean }

/** Single sign-on: the browser goes to the provider and comes back signed in (oidc-routes.ts). */
function SingleSignOn({ methods }: { methods: SignInMethods }) {
  const back = `/ui/${location.hash}`;
  return (
    <p class="sso">
      <a class="button primary" href={`/ui/api/auth/oidc/start?return=${encodeURIComponent(back.startsWith('/ui/#') ? back : '/ui/')}`}>Sign in with {methods.name}</a>
    </p>
  );
}

async function csrf(): Promise<string> {
  return (await api<{ csrf: string }>('GET', '/auth/csrf')).csrf;
}

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [mode, setMode] = useState<'password' | 'change' | 'apikey'>('password');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [next, setNext] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const methods = useApi(() => api<SignInMethods>('GET', '/auth/oidc'));
  const passwordsOff = methods.data?.local_passwords === false && mode === 'password';
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (mode === 'apikey') {
        await api('POST', '/auth', { apiKey });
        onSignedIn();
      } else if (mode === 'change') {
        await api('POST', '/auth/password', { username, password, newPassword: next, csrf: await csrf() });
        onSignedIn();
      } else {
        const r = await api<{ ok: boolean; must_change_password?: boolean }>('POST', '/auth', { username, password, csrf: await csrf() });
        if (r.ok) onSignedIn();
        else if (r.must_change_password) setMode('change');
      }
    } catch (err) {
      setError(err instanceof ApiError && err.status === 429 ? new Error(`Too many attempts: ${err.message}`) : err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{mode === 'change' ? 'Choose a new password' : 'Sign in to Wharf'}</h1>
        {mode !== 'change' && methods.data?.enabled ? <SingleSignOn methods={methods.data} /> : null}
        {mode === 'change' ? <p role="status">This account must choose its own password before it can continue.</p> : null}
        {passwordsOff ? <p class="muted">Password sign-in is turned off on this gateway (WebUi:LocalPasswords).</p> : mode === 'apikey' ? (
          <Field label="Admin API key" id="apikey"><input id="apikey" type="password" autocomplete="off" required value={apiKey} onInput={(e) => setApiKey((e.target as HTMLInputElement).value)} /></Field>
        ) : (
          <>
            <Field label="Username" id="username"><input id="username" autocomplete="username" required value={username} onInput={(e) => setUsername((e.target as HTMLInputElement).value)} /></Field>
            <Field label={mode === 'change' ? 'Current password' : 'Password'} id="password"><input id="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} /></Field>
            {mode === 'change' ? (
              <Field label="New password" id="new-password" hint={PASSWORD_RULE_TEXT} error={error instanceof ApiError && error.field === 'newPassword' ? error.message : null}>
                <input id="new-password" type="password" autocomplete="new-password" required minLength={MIN_PASSWORD_LENGTH} aria-describedby="new-password-hint" value={next} onInput={(e) => setNext((e.target as HTMLInputElement).value)} />
              </Field>
            ) : null}
          </>
        )}
        <button type="submit" class="primary" disabled={busy} hidden={passwordsOff}>{mode === 'change' ? 'Change password and sign in' : 'Sign in'}</button>
        <ErrorNote error={error instanceof ApiError && error.field === 'newPassword' ? null : error} />
        <p>
          {mode === 'apikey'
            ? <button type="button" class="link" onClick={() => setMode('password')}>Sign in with a password</button>
            : <button type="button" class="link" onClick={() => setMode('apikey')}>Sign in with an admin API key</button>}
        </p>
      </form>
    </main>
  );
}
