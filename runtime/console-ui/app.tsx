/**
 * The console shell: sign-in gate, navigation, live health badge and reload time from the event
 * stream, theme switch, and the page for the current `#/route`. Everything shown comes from
 * /ui/api; the API enforces every rule the UI reflects (viewer controls are disabled here and
 * refused there).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, onSignedOut, subscribe } from './api.js';
import { AccountPage } from './pages/account.js';
import { EndpointsPage } from './pages/endpoints.js';
import { EnvironmentsPage } from './pages/environments.js';
import { HealthPage } from './pages/health.js';
import { LogsPage } from './pages/logs.js';
import { OverviewPage } from './pages/overview.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/sign-in.js';
import { TokensPage } from './pages/tokens.js';
import { ValidatorPage } from './pages/validator.js';
import { Badge } from './ui.js';

interface Session {
  readonly authenticated: boolean;
  readonly username: string | null;
  readonly role: 'administrator' | 'viewer' | null;
  readonly kind?: 'session' | 'token' | null;
}

const ROUTES = [
  ['overview', 'Overview'], ['endpoints', 'Endpoints'], ['validator', 'Validator'], ['environments', 'Environments'],
  ['settings', 'Settings'], ['tokens', 'Tokens'], ['logs', 'Logs'], ['health', 'Health'], ['account', 'Account'],
] as const;
type Route = (typeof ROUTES)[number][0];

function currentRoute(): Route {
  const name = location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  return (ROUTES.find(([r]) => r === name)?.[0] ?? 'overview') as Route;
}

function useTheme(): [string, () => void] {
  const [theme, setTheme] = useState(() => localStorage.getItem('wharf-theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
    localStorage.setItem('wharf-theme', theme);
  }, [theme]);
  return [theme, () => setTheme(theme === 'dark' ? 'light' : 'dark')];
}

export function App() {
  const [session, setSession] = useState<Session | null | 'unknown'>('unknown');
  const [route, setRoute] = useState<Route>(currentRoute());
  const [health, setHealth] = useState('unknown');
  const [lastReload, setLastReload] = useState<string | null>(null);
  const [eventTick, setEventTick] = useState(0);
  const [trafficTick, setTrafficTick] = useState(0);
  const [theme, toggleTheme] = useTheme();

  const load = () => api<Session>('GET', '/auth/session').then((s) => setSession(s.authenticated ? s : null), () => setSession(null));
  useEffect(() => {
    void load();
    return onSignedOut(() => setSession(null));
  }, []);
  useEffect(() => {
    const onHash = () => {
      setRoute(currentRoute());
      document.getElementById('page-title')?.focus();
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!session || session === 'unknown') return;
    api<{ status: string }>('GET', '/health').then((h) => setHealth(h.status), () => undefined);
    return subscribe((event, data) => {
      if (event === 'health') setHealth(String((data as { status?: unknown })?.status ?? 'unknown'));
      if (event === 'endpoint_reload') setLastReload(new Date().toISOString().replace('T', ' ').slice(0, 19) + ' UTC');
      // a live traffic reading redraws the charts only; the other pages wait for real events
      if (event === 'traffic') setTrafficTick((t) => t + 1);
      else setEventTick((t) => t + 1);
    });
  }, [session]);

  if (session === 'unknown') return <p class="muted" role="status">Loading…</p>;
  if (!session) return <SignInPage onSignedIn={() => void load()} />;
  const canWrite = session.role === 'administrator';
  const signOut = async () => {
    await api('DELETE', '/auth').catch(() => undefined);
    setSession(null);
  };
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="#/overview">Wharf console</a>
        <span class="status">Health <Badge status={health} /></span>
        <span class="who">{session.username} <small class="muted">({session.role})</small></span>
        <button type="button" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>{theme === 'dark' ? 'Light' : 'Dark'} theme</button>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <nav class="side" aria-label="Console">
        <ul>{ROUTES.map(([r, label]) => <li key={r}><a href={`#/${r}`} aria-current={route === r ? 'page' : undefined}>{label}</a></li>)}</ul>
      </nav>
      <main id="main">
        {route === 'overview' ? <OverviewPage health={health} lastReload={lastReload} trafficTick={trafficTick} theme={theme} /> : null}
        {route === 'endpoints' ? <EndpointsPage lastReload={lastReload} /> : null}
        {route === 'validator' ? <ValidatorPage /> : null}
        {route === 'environments' ? <EnvironmentsPage canWrite={canWrite} /> : null}
        {route === 'settings' ? <SettingsPage canWrite={canWrite} /> : null}
        {route === 'tokens' ? <TokensPage canWrite={canWrite} eventTick={eventTick} /> : null}
        {route === 'logs' ? <LogsPage eventTick={eventTick} /> : null}
        {route === 'health' ? <HealthPage health={health} eventTick={trafficTick} theme={theme} /> : null}
        {route === 'account' ? <AccountPage username={session.username ?? ''} role={session.role ?? ''} isAccount={session.kind === 'session' && session.username !== 'admin-api-key'} /> : null}
      </main>
    </>
  );
}
