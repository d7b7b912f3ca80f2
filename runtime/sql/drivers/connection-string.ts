/**
 * Connection strings as users write them, parsed without the database client libraries (so the
 * settings loader can refuse a malformed one at startup, naming the key, before any driver loads).
 *
 * SQL Server (`mssql`):
 * - ADO.NET: `Server=host,1433;Database=db;User Id=u;Password=p;Encrypt=true;TrustServerCertificate=false`
 *   (keys case-insensitive, spaces inside keys optional, values quoted with ' or " when they hold `;`);
 * - URL: `mssql://u:p@host:1433/db?encrypt=true&trustServerCertificate=false` (also `sqlserver://`),
 *   the query keys being the same keys as the ADO.NET form.
 * PostgreSQL (`postgres`):
 * - URL: `postgres://u:p@host:5432/db?sslmode=require` (handed to `pg` as it is, after a check);
 * - keywords (Npgsql, as docs/settings.md shows): `Host=db;Port=5432;Username=app;Password=...;Database=app`.
 * Anything else (an unknown key, a bad value, a JDBC URL, a space-separated libpq string) is a
 * ConnectionStringError whose message names the key; values (passwords) never appear in it.
 */

export class ConnectionStringError extends Error {
  override readonly name = 'ConnectionStringError';
}

function fail(message: string): never {
  throw new ConnectionStringError(message);
}

/** `Key=Value;...` pairs in order: keys trimmed (original spelling kept for messages), values unquoted. */
export function keyValuePairs(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ';' || /\s/.test(text[i] as string))) i++;
    if (i >= text.length) break;
    const eq = text.indexOf('=', i);
    const semi = text.indexOf(';', i);
    if (eq < 0 || (semi >= 0 && semi < eq)) fail(`'${text.slice(i, semi < 0 ? undefined : semi).trim()}' is not a Key=Value pair (pairs are separated by ';')`);
    const key = text.slice(i, eq).trim();
    if (key === '') fail('a key is empty (each pair is Key=Value, separated by \';\')');
    i = eq + 1;
    while (i < text.length && text[i] === ' ') i++;
    let value: string;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(`the value of ${key} has no closing ${quote}`);
        if (text[i] === quote) {
          if (text[i + 1] === quote) {
            value += quote;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      while (i < text.length && text[i] === ' ') i++;
      if (i < text.length && text[i] !== ';') fail(`unexpected text after the quoted value of ${key}`);
    } else {
      const end = text.indexOf(';', i);
      value = text.slice(i, end < 0 ? undefined : end).trim();
      i = end < 0 ? text.length : end;
    }
    out.push({ key, value });
  }
  return out;
}

/** `Trust Server Certificate` and `TrustServerCertificate` are the same key. */
function compact(key: string): string {
  return key.toLowerCase().replace(/[\s_]/g, '');
}

function bool(key: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === '0') return false;
  return fail(`${key} must be true or false`);
}

function wholeNumber(key: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim())) fail(`${key} must be a whole number`);
  const n = Number(value);
  if (n < min || n > max) fail(`${key} must be between ${min} and ${max}`);
  return n;
}

function hostName(key: string, host: string): string {
  if (host === '' || /[\s;,/?#@]/.test(host)) fail(`${key} is not a host name`);
  return host;
}

function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim());
}

/* ------------------------------------------------------------------ SQL Server */

/** The subset of an `mssql` config the connection string sets (passed to `new ConnectionPool`). */
export interface MssqlConnectionConfig {
  server: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  domain?: string;
  connectionTimeout?: number;
  requestTimeout?: number;
  authentication_type?: string;
  clientId?: string;
  clientSecret?: string;
  tenantId?: string;
  token?: string;
  msiEndpoint?: string;
  msiSecret?: string;
  pool: { min?: number; max?: number };
  options: {
    encrypt?: boolean | 'strict';
    trustServerCertificate?: boolean;
    instanceName?: string;
    appName?: string;
    readOnlyIntent?: boolean;
    multiSubnetFailover?: boolean;
    packetSize?: number;
    language?: string;
    database?: string;
  };
}

type MssqlKey = (config: MssqlConnectionConfig, key: string, value: string) => void;

const server: MssqlKey = (c, key, value) => {
  let s = value.trim();
  if (/^np:/i.test(s)) fail(`${key}: named pipes are not supported (use host,port)`);
  if (/^(tcp|admin):/i.test(s)) s = s.replace(/^[a-z]+:/i, '');
  const comma = s.lastIndexOf(',');
  if (comma >= 0) {
    c.port = wholeNumber(`${key} (the port after ',')`, s.slice(comma + 1).trim(), 1, 65535);
    s = s.slice(0, comma).trim();
  }
  const slash = s.indexOf('\\');
  if (slash >= 0) {
    const instance = s.slice(slash + 1).trim();
    if (instance === '') fail(`${key}: the instance name after '\\' is empty`);
    c.options.instanceName = instance;
    s = s.slice(0, slash).trim();
  }
  const lower = s.toLowerCase();
  if (lower === '(localdb)') fail(`${key}: LocalDB is not supported (use host,port)`);
  c.server = s === '.' || lower === '(local)' || lower === '(.)' ? 'localhost' : hostName(key, s);
};

const AUTHENTICATION: Readonly<Record<string, string>> = {
  sqlpassword: 'default',
  activedirectorypassword: 'azure-active-directory-password',
  activedirectorydefault: 'azure-active-directory-default',
  activedirectoryserviceprincipal: 'azure-active-directory-service-principal-secret',
  activedirectorymanagedidentity: 'azure-active-directory-msi-vm',
  activedirectorymsi: 'azure-active-directory-msi-vm',
  activedirectoryaccesstoken: 'azure-active-directory-access-token',
};

const ignored: MssqlKey = () => undefined;

/** Every key the ADO.NET form accepts (compact spelling), and what it sets. */
const MSSQL_KEYS: Readonly<Record<string, MssqlKey>> = {
  server, datasource: server, address: server, addr: server, networkaddress: server,
  database: (c, _k, v) => { c.database = v; },
  initialcatalog: (c, _k, v) => { c.database = v; },
  userid: (c, _k, v) => {
    const domainUser = /^([^\\]+)\\(.+)$/.exec(v);
    if (domainUser) {
      c.domain = domainUser[1] as string;
      c.user = domainUser[2] as string;
    } else c.user = v;
  },
  password: (c, _k, v) => { c.password = v; },
  encrypt: (c, key, v) => {
    const lower = v.toLowerCase();
    if (lower === 'strict') c.options.encrypt = 'strict';
    else if (lower === 'mandatory') c.options.encrypt = true;
    else if (lower === 'optional') c.options.encrypt = false;
    else if (['true', 'false', 'yes', 'no'].includes(lower)) c.options.encrypt = bool(key, v);
    else fail(`${key} must be true, false, strict, mandatory or optional`);
  },
  trustservercertificate: (c, key, v) => { c.options.trustServerCertificate = bool(key, v); },
  connecttimeout: (c, key, v) => { c.connectionTimeout = wholeNumber(`${key} (seconds)`, v, 1, 3600) * 1000; },
  commandtimeout: (c, key, v) => { c.requestTimeout = wholeNumber(`${key} (seconds)`, v, 1, 86400) * 1000; },
  applicationname: (c, _k, v) => { c.options.appName = v; },
  applicationintent: (c, key, v) => {
    const lower = v.toLowerCase();
    if (lower !== 'readonly' && lower !== 'readwrite') fail(`${key} must be ReadOnly or ReadWrite`);
    c.options.readOnlyIntent = lower === 'readonly';
  },
  multisubnetfailover: (c, key, v) => { c.options.multiSubnetFailover = bool(key, v); },
  packetsize: (c, key, v) => { c.options.packetSize = wholeNumber(key, v, 512, 32768); },
  currentlanguage: (c, _k, v) => { c.options.language = v; },
  minpoolsize: (c, key, v) => { c.pool.min = wholeNumber(key, v, 0, 1000); },
  maxpoolsize: (c, key, v) => { c.pool.max = wholeNumber(key, v, 1, 1000); },
  integratedsecurity: (_c, key, v) => {
    if (v.toLowerCase() === 'sspi' || bool(key, v)) fail(`${key}: Windows authentication is not supported; use User Id and Password`);
  },
  authentication: (c, key, v) => {
    const type = AUTHENTICATION[compact(v).replace(/-/g, '')];
    if (!type) fail(`${key} must be one of Sql Password, Active Directory Password, Active Directory Default, Active Directory Service Principal, Active Directory Managed Identity, Active Directory Access Token`);
    c.authentication_type = type;
  },
  clientid: (c, _k, v) => { c.clientId = v; },
  clientsecret: (c, _k, v) => { c.clientSecret = v; },
  tenantid: (c, _k, v) => { c.tenantId = v; },
  token: (c, _k, v) => { c.token = v; },
  msiendpoint: (c, _k, v) => { c.msiEndpoint = v; },
  msisecret: (c, _k, v) => { c.msiSecret = v; },
  // accepted as .NET does, without effect here (pooling is always on; no MARS in TDS clients for Node)
  multipleactiveresultsets: (_c, key, v) => void bool(key, v),
  persistsecurityinfo: (_c, key, v) => void bool(key, v),
  pooling: (_c, key, v) => void bool(key, v),
  enlist: (_c, key, v) => void bool(key, v),
  workstationid: ignored,
  connectretrycount: (_c, key, v) => void wholeNumber(key, v, 0, 255),
  connectretryinterval: (_c, key, v) => void wholeNumber(key, v, 1, 60),
  loadbalancetimeout: (_c, key, v) => void wholeNumber(key, v, 0, 86400),
  connectionlifetime: (_c, key, v) => void wholeNumber(key, v, 0, 86400),
  hostnameincertificate: ignored,
  transparentnetworkipresolution: (_c, key, v) => void bool(key, v),
};

const MSSQL_ALIASES: Readonly<Record<string, string>> = {
  uid: 'userid', user: 'userid', username: 'userid', pwd: 'password', connectiontimeout: 'connecttimeout', timeout: 'connecttimeout',
  app: 'applicationname', wsid: 'workstationid', language: 'currentlanguage', trustedconnection: 'integratedsecurity',
  mars: 'multipleactiveresultsets',
};

const MSSQL_KEY_LIST = 'Server, Database, User Id, Password, Encrypt, TrustServerCertificate, Connect Timeout, Application Name, Max Pool Size, ...';

function mssqlKey(key: string): MssqlKey {
  const c = compact(key);
  const handler = MSSQL_KEYS[MSSQL_ALIASES[c] ?? c];
  if (!handler) fail(`unknown key '${key}' (SQL Server keys: ${MSSQL_KEY_LIST})`);
  return handler;
}

function mssqlUrl(text: string): MssqlConnectionConfig {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return fail('is not a valid URL (mssql://user:password@host:port/database?encrypt=true)');
  }
  if (url.protocol !== 'mssql:' && url.protocol !== 'sqlserver:') {
    if (/^jdbc:/i.test(text.trim())) fail('JDBC URLs are not supported: write Server=host,port;Database=...;User Id=...;Password=...');
    fail(`URL scheme '${url.protocol.replace(/:$/, '')}' is not SQL Server (use mssql:// or the ADO.NET form Server=...;Database=...)`);
  }
  const config: MssqlConnectionConfig = { server: hostName('host', decodeURIComponent(url.hostname)), pool: {}, options: {} };
  if (url.port) config.port = wholeNumber('port', url.port, 1, 65535);
  if (url.username) config.user = decodeURIComponent(url.username);
  if (url.password) config.password = decodeURIComponent(url.password);
  const segments = url.pathname.split('/').filter((s) => s !== '');
  if (segments.length > 2) fail('the URL path is /database (or /instance/database)');
  if (segments.length === 2) config.options.instanceName = decodeURIComponent(segments[0] as string);
  if (segments.length > 0) config.database = decodeURIComponent(segments.at(-1) as string);
  for (const [key, value] of url.searchParams) {
    if (['server', 'datasource', 'address', 'addr', 'networkaddress'].includes(compact(key))) fail(`${key}: the host is part of the URL`);
    mssqlKey(key)(config, key, value);
  }
  return config;
}

export function parseMssqlConnectionString(text: string): MssqlConnectionConfig {
  if (looksLikeUrl(text) || /^jdbc:/i.test(text.trim())) return mssqlUrl(text);
  const config: MssqlConnectionConfig = { server: '', pool: {}, options: {} };
  const seen = new Map<string, string>();
  for (const { key, value } of keyValuePairs(text)) {
    const handler = mssqlKey(key);
    const c = compact(key);
    const canonical = handler === server ? 'server' : (MSSQL_ALIASES[c] ?? c);
    const before = seen.get(canonical);
    if (before !== undefined) fail(`${key} is given twice (also as ${before})`);
    seen.set(canonical, key);
    handler(config, key, value);
  }
  if (config.server === '') fail('Server is missing (Server=host,port)');
  return config;
}

/* ------------------------------------------------------------------ PostgreSQL */

/** What `pg` receives: the URL as it is, or the fields of the keyword form. */
export interface PgConnectionConfig {
  connectionString?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean | { rejectUnauthorized: boolean };
  application_name?: string;
  options?: string;
  connectionTimeoutMillis?: number;
}

type PgKey = (config: PgConnectionConfig, key: string, value: string, ssl: { mode?: string; trust?: boolean }) => void;

const PG_KEYS: Readonly<Record<string, PgKey>> = {
  host: (c, key, v) => {
    if (v.includes(',')) fail(`${key}: several hosts are not supported (give one host)`);
    c.host = hostName(key, v);
  },
  port: (c, key, v) => { c.port = wholeNumber(key, v, 1, 65535); },
  database: (c, _k, v) => { c.database = v; },
  username: (c, _k, v) => { c.user = v; },
  password: (c, _k, v) => { c.password = v; },
  sslmode: (_c, key, v, ssl) => {
    const mode = compact(v).replace(/-/g, '');
    if (!['disable', 'allow', 'prefer', 'require', 'verifyca', 'verifyfull'].includes(mode)) fail(`${key} must be Disable, Allow, Prefer, Require, VerifyCA or VerifyFull`);
    ssl.mode = mode;
  },
  trustservercertificate: (_c, key, v, ssl) => { ssl.trust = bool(key, v); },
  timeout: (c, key, v) => { c.connectionTimeoutMillis = wholeNumber(`${key} (seconds)`, v, 1, 1024) * 1000; },
  applicationname: (c, _k, v) => { c.application_name = v; },
  searchpath: (c, key, v) => {
    if (!/^[\w$", ]+$/.test(v)) fail(`${key} must be a list of schema names`);
    c.options = `-c search_path=${v.replace(/ /g, '')}`;
  },
  // accepted as Npgsql does; pools and command timeouts come from SqlConnectionPooling:* settings
  pooling: (_c, key, v) => void bool(key, v),
  minimumpoolsize: (_c, key, v) => void wholeNumber(key, v, 0, 1024),
  maximumpoolsize: (_c, key, v) => void wholeNumber(key, v, 1, 1024),
  commandtimeout: (_c, key, v) => void wholeNumber(key, v, 0, 86400),
  connectionidlelifetime: (_c, key, v) => void wholeNumber(key, v, 0, 86400),
  keepalive: (_c, key, v) => void wholeNumber(key, v, 0, 86400),
  includeerrordetail: (_c, key, v) => void bool(key, v),
  maxautoprepare: (_c, key, v) => void wholeNumber(key, v, 0, 10000),
};

const PG_ALIASES: Readonly<Record<string, string>> = {
  server: 'host', db: 'database', user: 'username', userid: 'username', uid: 'username', username: 'username', pwd: 'password', psw: 'password',
  connecttimeout: 'timeout', connectiontimeout: 'timeout', application: 'applicationname',
};

const PG_KEY_LIST = 'Host, Port, Database, Username, Password, SSL Mode, Trust Server Certificate, Timeout, Application Name, Search Path, ...';

function pgUrl(text: string): PgConnectionConfig {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return fail('is not a valid URL (postgres://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    fail(`URL scheme '${url.protocol.replace(/:$/, '')}' is not PostgreSQL (use postgres:// or Host=...;Database=...)`);
  }
  if (url.hostname !== '' && /[,]/.test(url.host)) fail('several hosts are not supported (give one host)');
  if (url.port) wholeNumber('port', url.port, 1, 65535);
  return { connectionString: text.trim() };
}

export function parsePostgresConnectionString(text: string): PgConnectionConfig {
  const trimmed = text.trim();
  if (looksLikeUrl(trimmed)) return pgUrl(trimmed);
  if (!trimmed.includes(';') && /^\w+\s*=\s*\S+\s+\w+\s*=/.test(trimmed)) {
    fail('space-separated libpq keywords are not supported: write Host=...;Port=...;Database=...;Username=...;Password=... or a postgres:// URL');
  }
  const config: PgConnectionConfig = {};
  const ssl: { mode?: string; trust?: boolean } = {};
  const seen = new Map<string, string>();
  for (const { key, value } of keyValuePairs(trimmed)) {
    const c = compact(key);
    const canonical = PG_ALIASES[c] ?? c;
    const handler = PG_KEYS[canonical];
    if (!handler) fail(`unknown key '${key}' (PostgreSQL keys: ${PG_KEY_LIST})`);
    const before = seen.get(canonical);
    if (before !== undefined) fail(`${key} is given twice (also as ${before})`);
    seen.set(canonical, key);
    handler(config, key, value, ssl);
  }
  if (config.host === undefined) fail('Host is missing (Host=server;Port=5432;Database=...)');
  if (ssl.mode === 'require' || ssl.mode === 'verifyca' || ssl.mode === 'verifyfull') {
    config.ssl = ssl.trust === true || ssl.mode === 'require' ? { rejectUnauthorized: false } : true;
  } else if (ssl.mode === 'disable' || ssl.mode === undefined || ssl.mode === 'allow' || ssl.mode === 'prefer') {
    config.ssl = false;
  }
  return config;
}

/** The problem with a database connection string, or null; for startup checks (never prints a value). */
export function connectionStringProblem(provider: 'mssql' | 'postgres' | 'embedded', text: string): string | null {
  if (provider === 'embedded') return null;
  try {
    if (provider === 'mssql') parseMssqlConnectionString(text);
    else parsePostgresConnectionString(text);
    return null;
  } catch (error) {
    if (error instanceof ConnectionStringError) return error.message;
    throw error;
  }
}
