import { describe, expect, it } from 'vitest';
import { connectionStringProblem, keyValuePairs, parseMssqlConnectionString, parsePostgresConnectionString } from './connection-string.js';

describe('keyValuePairs', () => {
  it.each([
    ['a=1;b=2', [{ key: 'a', value: '1' }, { key: 'b', value: '2' }]],
    [' A = x y ; ;B=;', [{ key: 'A', value: 'x y' }, { key: 'B', value: '' }]],
    ["Password='p;w''d';X=1", [{ key: 'Password', value: "p;w'd" }, { key: 'X', value: '1' }]],
    ['Password="a=b";', [{ key: 'Password', value: 'a=b' }]],
    ['Password=a=b', [{ key: 'Password', value: 'a=b' }]],
  ])('%s', (text, want) => {
    expect(keyValuePairs(text)).toEqual(want);
  });
});

describe('SQL Server connection strings', () => {
  it.each([
    ['ADO.NET as users write it', 'Server=db.example.com,1433;Database=Shop;User Id=app;Password=s3cret;Encrypt=True;TrustServerCertificate=False', {
      server: 'db.example.com', port: 1433, database: 'Shop', user: 'app', password: 's3cret', pool: {}, options: { encrypt: true, trustServerCertificate: false },
    }],
    ['synonyms, tcp:, spaces in keys, instance', 'Data Source=tcp:sql1\\PROD;Initial Catalog=Shop;UID=app;PWD=p;Trust Server Certificate=yes;Connect Timeout=15;Application Name=wharf;Max Pool Size=20', {
      server: 'sql1', database: 'Shop', user: 'app', password: 'p', connectionTimeout: 15000, pool: { max: 20 },
      options: { instanceName: 'PROD', trustServerCertificate: true, appName: 'wharf' },
    }],
    ['(local), Encrypt=Strict, accepted keys without effect', 'Server=(local);Encrypt=Strict;MultipleActiveResultSets=True;Persist Security Info=False;Integrated Security=false', {
      server: 'localhost', pool: {}, options: { encrypt: 'strict' },
    }],
    ['domain user', 'Server=h;User Id=CORP\\svc;Password=x', { server: 'h', domain: 'CORP', user: 'svc', password: 'x', pool: {}, options: {} }],
    ['URL', 'mssql://app:p%40ss@127.0.0.1:14330/Shop?encrypt=false&TrustServerCertificate=true&Application%20Name=w', {
      server: '127.0.0.1', port: 14330, user: 'app', password: 'p@ss', database: 'Shop', pool: {}, options: { encrypt: false, trustServerCertificate: true, appName: 'w' },
    }],
    ['sqlserver:// URL with an instance', 'sqlserver://h/PROD/Shop', { server: 'h', database: 'Shop', pool: {}, options: { instanceName: 'PROD' } }],
  ])('%s', (_name, text, want) => {
    expect(parseMssqlConnectionString(text)).toEqual(want);
  });

  it.each([
    ['Server=h;Pasword=x', "unknown key 'Pasword' (SQL Server keys: Server, Database, User Id, Password, Encrypt, TrustServerCertificate, Connect Timeout, Application Name, Max Pool Size, ...)"],
    ['Server=h,abc', "Server (the port after ',') must be a whole number"],
    ['Server=h;Port=1433', "unknown key 'Port' (SQL Server keys: Server, Database, User Id, Password, Encrypt, TrustServerCertificate, Connect Timeout, Application Name, Max Pool Size, ...)"],
    ['Server=h;Encrypt=maybe', 'Encrypt must be true, false, strict, mandatory or optional'],
    ['Server=h;TrustServerCertificate=1x', 'TrustServerCertificate must be true or false'],
    ['Server=h;Connect Timeout=soon', 'Connect Timeout (seconds) must be a whole number'],
    ['Database=x;User Id=u', 'Server is missing (Server=host,port)'],
    ['Server=a;Data Source=b', 'Data Source is given twice (also as Server)'],
    ['Server=h;Integrated Security=SSPI', 'Integrated Security: Windows authentication is not supported; use User Id and Password'],
    ['Server=np:\\\\.\\pipe\\sql', 'Server: named pipes are not supported (use host,port)'],
    ['Server=h;Password="open', 'the value of Password has no closing "'],
    ['just a host', "the connection string does not start with a Key=Value pair (pairs are separated by ';')"],
    ['Server=h;Password=pa;ss;Database=x', 'the text after the value of Password is not a Key=Value pair (pairs are separated by \';\'; quote a value that holds \';\', as in Password="a;b")'],
    // The rest of an unquoted password holding ';' and '=' reads as a key: never echoed.
    ['Server=h;Pwd=pa;ss=w0rd;Database=x', 'the text after the value of Pwd is not a Key=Value pair (pairs are separated by \';\'; quote a value that holds \';\', as in Password="a;b")'],
    ['jdbc:sqlserver://h:1433;databaseName=x', 'JDBC URLs are not supported: write Server=host,port;Database=...;User Id=...;Password=...'],
    ['postgres://h/db', "URL scheme 'postgres' is not SQL Server (use mssql:// or the ADO.NET form Server=...;Database=...)"],
    ['mssql://h:99999/db', 'is not a valid URL (mssql://user:password@host:port/database?encrypt=true)'],
    ['mssql://h/db?encrypt=perhaps', 'encrypt must be true, false, strict, mandatory or optional'],
    ['mssql://h/db?server=other', 'server: the host is part of the URL'],
  ])('%s is refused: %s', (text, message) => {
    expect(() => parseMssqlConnectionString(text)).toThrow(message);
    expect(connectionStringProblem('mssql', text)).toBe(message);
  });

  it('a message never contains a password', () => {
    expect(connectionStringProblem('mssql', "Server=h;Password='sup3r;secret';Encrypt=sup3r")).not.toContain('sup3r');
    // an unquoted password holding ';': its rest is stray text, named by the key before it, not echoed
    expect(connectionStringProblem('mssql', 'Server=h;Password=pa;s3cr3t;Database=x')).not.toContain('s3cr3t');
    expect(connectionStringProblem('postgres', 'Host=h;Password=pa;s3cr3t;Database=x')).not.toContain('s3cr3t');
  });
});

describe('PostgreSQL connection strings', () => {
  it.each([
    ['the form docs/settings.md shows', 'Host=db;Port=5433;Username=app;Password=p;Database=shop', {
      host: 'db', port: 5433, user: 'app', password: 'p', database: 'shop', ssl: false,
    }],
    ['Npgsql synonyms and SSL', 'Server=db;User ID=app;Database=shop;SSL Mode=Require;Trust Server Certificate=true;Timeout=3;Application Name=w;Search Path=inventory, sales;Pooling=true', {
      host: 'db', user: 'app', database: 'shop', ssl: { rejectUnauthorized: false }, connectionTimeoutMillis: 3000, application_name: 'w', options: '-c search_path=inventory,sales',
    }],
    ['VerifyFull checks the certificate', 'Host=db;SslMode=VerifyFull', { host: 'db', ssl: true }],
    ['URL as it is', 'postgresql://u:p@h:5432/db?sslmode=disable', { connectionString: 'postgresql://u:p@h:5432/db?sslmode=disable' }],
  ])('%s', (_name, text, want) => {
    expect(parsePostgresConnectionString(text)).toEqual(want);
  });

  it.each([
    ['Host=db;Port=five', 'Port must be a whole number'],
    ['Host=db;Usr=x', "unknown key 'Usr' (PostgreSQL keys: Host, Port, Database, Username, Password, SSL Mode, Trust Server Certificate, Timeout, Application Name, Search Path, ...)"],
    ['Host=db;Password=pa;ss=w0rd', 'the text after the value of Password is not a Key=Value pair (pairs are separated by \';\'; quote a value that holds \';\', as in Password="a;b")'],
    ['Host=db;Password="pa;ss";Usr=x', "unknown key 'Usr' (PostgreSQL keys: Host, Port, Database, Username, Password, SSL Mode, Trust Server Certificate, Timeout, Application Name, Search Path, ...)"],
    ['Port=5432;Database=x', 'Host is missing (Host=server;Port=5432;Database=...)'],
    ['Host=a,b', 'Host: several hosts are not supported (give one host)'],
    ['Host=db;SSL Mode=sometimes', 'SSL Mode must be Disable, Allow, Prefer, Require, VerifyCA or VerifyFull'],
    ['host=db port=5432 dbname=x', 'space-separated libpq keywords are not supported: write Host=...;Port=...;Database=...;Username=...;Password=... or a postgres:// URL'],
    ['mysql://h/db', "URL scheme 'mysql' is not PostgreSQL (use postgres:// or Host=...;Database=...)"],
    ['Host=my db', 'Host is not a host name'],
  ])('%s is refused: %s', (text, message) => {
    expect(() => parsePostgresConnectionString(text)).toThrow(message);
    expect(connectionStringProblem('postgres', text)).toBe(message);
  });

  it('embedded has no connection string to check', () => {
    expect(connectionStringProblem('embedded', 'anything')).toBeNull();
  });
});
