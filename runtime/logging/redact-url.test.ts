import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

const TOKEN = 'whf_0123456789ab_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

describe('redactUrl', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['no query', { given: '/api/demo/Products', want: '/api/demo/Products' }],
    ['harmless query kept', { given: '/api/demo/Products?$top=5&$filter=Name%20eq%20%27x%27', want: '/api/demo/Products?$top=5&$filter=Name%20eq%20%27x%27' }],
    ['access_token', { given: `/api/demo/P?access_token=${TOKEN}&$top=1`, want: '/api/demo/P?access_token=[REDACTED]&$top=1' }],
    ['token, any case', { given: '/api/demo/P?TOKEN=abc', want: '/api/demo/P?TOKEN=[REDACTED]' }],
    ['api_key and api-key', { given: '/x?api_key=k1&api-key=k2&apikey=k3', want: '/x?api_key=[REDACTED]&api-key=[REDACTED]&apikey=[REDACTED]' }],
    ['pwd and pass (the list redact() judges settings values by)', { given: '/x?pwd=p1&pass=p2&page=3', want: '/x?pwd=[REDACTED]&pass=[REDACTED]&page=3' }],
    ['percent-encoded name', { given: '/x?access%5Ftoken=s', want: '/x?access%5Ftoken=[REDACTED]' }],
    ['token shape in another parameter', { given: `/x?q=${TOKEN}`, want: '/x?q=[REDACTED]' }],
    ['token shape inside a $filter value', { given: `/x?$filter=Name%20eq%20%27${TOKEN}%27`, want: '/x?$filter=Name%20eq%20%27[REDACTED]' }],
    ['token shape in the path', { given: `/api/demo/P/${TOKEN}`, want: '/api/demo/P/[REDACTED]' }],
    ['fragment dropped', { given: '/x?a=1#access_token=s', want: '/x?a=1' }],
    ['empty value', { given: '/x?token=', want: '/x?token=[REDACTED]' }],
    ['plus-encoded space around a name', { given: '/x?+token+=s&$top=1', want: '/x?+token+=[REDACTED]&$top=1' }],
    ['dash and underscore alike, any case', { given: '/x?Client-Secret=s&REFRESH_TOKEN=t', want: '/x?Client-Secret=[REDACTED]&REFRESH_TOKEN=[REDACTED]' }],
    ['near misses kept', { given: '/x?tokens=1&sig-nature=2&keys=3&$select=key', want: '/x?tokens=1&sig-nature=2&keys=3&$select=key' }],
    ['a name without a value kept', { given: '/x?token&a=1', want: '/x?token&a=1' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(redactUrl(given)).toBe(want);
  });
});
