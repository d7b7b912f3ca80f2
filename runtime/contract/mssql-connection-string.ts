/** SQL Server connection strings (ADO.NET keywords or an `mssql://`/`sqlserver://` URL) as `mssql` config; connection-string.ts has the forms. */
import { fail, keyValuePairs, compact, unknownKey, type KeyValuePair, bool, wholeNumber, hostName, looksLikeUrl, connectionUrl } from './connection-string-grammar.js';

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

function mssqlKey(pair: KeyValuePair): MssqlKey {
  const c = compact(pair.key);
  const handler = MSSQL_KEYS[MSSQL_ALIASES[c] ?? c];
  if (!handler) unknownKey(pair, `SQL Server keys: ${MSSQL_KEY_LIST}`);
  return handler;
}

function mssqlUrl(text: string): MssqlConnectionConfig {
  const url = connectionUrl(text, 'mssql://user:password@host:port/database?encrypt=true');
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
    mssqlKey({ key, value })(config, key, value);
  }
  return config;
}

export function parseMssqlConnectionString(text: string): MssqlConnectionConfig {
  if (looksLikeUrl(text) || /^jdbc:/i.test(text.trim())) return mssqlUrl(text);
  const config: MssqlConnectionConfig = { server: '', pool: {}, options: {} };
  const seen = new Map<string, string>();
  for (const pair of keyValuePairs(text)) {
    const { key, value } = pair;
    const handler = mssqlKey(pair);
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
