/**
 * The signed-in account: its name and role, and its single sign-on identity (linked at the
 * provider of Auth:Jwt:Issuer). Linking and unlinking one's own identity is open to viewers too.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote, Loading, Page, useApi } from '../ui.js';

interface SignInMethods { enabled: boolean; name: string | null; local_passwords: boolean }
interface Linked { linked: { issuer: string; subject: string; linked_at: string }[] }

export function AccountPage({ username, role, isAccount }: { username: string; role: string; isAccount: boolean }) {
  const methods = useApi(() => api<SignInMethods>('GET', '/auth/oidc'));
  const linked = useApi(() => (isAccount && methods.data?.enabled ? api<Linked>('GET', '/auth/oidc/identity') : Promise.resolve({ linked: [] })), [methods.data]);
  const [error, setError] = useState<unknown>(null);
  const link = async () => {
    setError(null);
    try {
      const { url } = await api<{ url: string }>('POST', '/auth/oidc/identity', { return: '/ui/#/account' });
      location.assign(url);
    } catch (err) {
      setError(err);
    }
  };
  const unlink = async () => {
    setError(null);
    try {
      await api('DELETE', '/auth/oidc/identity');
      linked.reload();
    } catch (err) {
      setError(err);
    }
  };
  const identity = linked.data?.linked[0];
  return (
    <Page title="Account">
      <dl class="card">
        <dt>Username</dt><dd>{username}</dd>
        <dt>Role</dt><dd>{role}</dd>
      </dl>
      <h2>Single sign-on</h2>
      {methods.data === null ? <Loading what="sign-in methods" /> : !methods.data.enabled ? (
        <p class="muted">Single sign-on is not enabled on this gateway (WebUi:Oidc:Enabled).</p>
      ) : !isAccount ? (
        <p class="muted">Only a console account signed in with a password or single sign-on has an identity to link.</p>
      ) : linked.data === null ? <Loading what="linked identity" /> : identity ? (
        <>
          <p id="sso-identity">Linked to <strong>{identity.subject}</strong> at {identity.issuer} (since {identity.linked_at.replace('T', ' ').slice(0, 19)} UTC).</p>
          <button type="button" onClick={unlink}>Unlink {methods.data.name}</button>
        </>
      ) : (
        <>
          <p id="sso-identity">No identity linked: you sign in with your password only.</p>
          <button type="button" class="primary" onClick={link}>Link {methods.data.name}</button>
        </>
      )}
      <ErrorNote error={error ?? methods.error ?? linked.error} />
    </Page>
  );
}
