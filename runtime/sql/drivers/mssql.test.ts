/** How tedious's errors are classified (the executed paths: test/sql/mssql-faults.test.ts with MSSQL_URL). */
import { describe, expect, it } from 'vitest';
import { classifyMssqlError } from './mssql.js';

const tedious = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('classifyMssqlError', () => {
  it.each([
    ['the request timed out', tedious('ETIMEOUT', 'Timeout: Request failed to complete in 1000ms'), 'timeout'],
    // Babelfish does not acknowledge the cancel during a sleep: tedious gives up and drops the connection
    ['the cancel was not acknowledged either', tedious('ETIMEOUT', 'Failed to cancel request in 5000ms'), 'timeout'],
    ['the connection did not open in time', tedious('ETIMEOUT', 'Failed to connect to 127.0.0.1:1433 in 2000ms'), 'connection'],
    ['refused', tedious('ESOCKET', 'Failed to connect to 127.0.0.1:1 - Could not connect (sequence)'), 'connection'],
    // a JWT claim of 1e300 compared with an int column through a RowFilter: a 400, never a 500
    ['a parameter its type cannot hold', tedious('EPARAM', "Validation failed for parameter 'p1'. Value must be between -2147483648 and 2147483647, inclusive."), 'value'],
  ])('%s', (_name, error, kind) => {
    expect(classifyMssqlError(error).kind).toBe(kind);
  });
});
