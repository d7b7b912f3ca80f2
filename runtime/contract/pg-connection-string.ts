/** PostgreSQL connection strings (a `postgres://` URL, or Npgsql keywords) as `pg` config; connection-string.ts has the forms. */
import { fail, keyValuePairs, compact, unknownKey, bool, wholeNumber, hostName, looksLikeUrl, connectionUrl } from './connection-string-grammar.js';

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
  const url = connectionUrl(text, 'postgres://user:password@host:5432/database');
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
  for (const pair of keyValuePairs(trimmed)) {
    const { key, value } = pair;
    const c = compact(key);
    const canonical = PG_ALIASES[c] ?? c;
    const handler = PG_KEYS[canonical];
    if (!handler) unknownKey(pair, `PostgreSQL keys: ${PG_KEY_LIST}`);
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
