/**
 * WebUi:* settings of the console (defaults in brackets):
 *   WebUi:Enabled [true]            the /ui/api routes exist at all
 *   WebUi:SecureCookies [false]     Secure on the cookies even over plain HTTP (always on over HTTPS)
 *   WebUi:SessionHours [12]         session lifetime
 *   WebUi:AdminApiKey [none]        enables sign-in with {apiKey} (secret; never logged)
 *   WebUi:SeedPassword [none]       first start: account `admin` with this password (demo only)
 *   WebUi:SignInAttemptsPerIp [10] per WebUi:SignInWindowSeconds [300]
 *   WebUi:PublicOrigins []          origins (scheme://host[:port]) from which the console may be used
 *                                   besides loopback and private networks
 */
import type { ConfigSource } from '../settings/config-source.js';

export interface ConsoleSettings {
  readonly enabled: boolean;
  readonly secureCookies: boolean;
  readonly sessionHours: number;
  readonly adminApiKey: string | null;
  readonly seedPassword: string | null;
  readonly signInAttemptsPerIp: number;
  readonly signInWindowSeconds: number;
  readonly publicOrigins: readonly string[];
}

function optional(source: ConfigSource, key: string): string | null {
  const value = source.string(key);
  return value === '' ? null : value;
}

export function readConsoleSettings(source: ConfigSource): ConsoleSettings {
  return {
    enabled: source.bool('WebUi:Enabled'),
    secureCookies: source.bool('WebUi:SecureCookies'),
    sessionHours: source.int('WebUi:SessionHours'),
    adminApiKey: optional(source, 'WebUi:AdminApiKey'),
    seedPassword: optional(source, 'WebUi:SeedPassword'),
    signInAttemptsPerIp: source.int('WebUi:SignInAttemptsPerIp'),
    signInWindowSeconds: source.int('WebUi:SignInWindowSeconds'),
    publicOrigins: source.stringList('WebUi:PublicOrigins') ?? [],
  };
}
