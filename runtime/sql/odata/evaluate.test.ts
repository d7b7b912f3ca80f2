import { describe, it, expect } from 'vitest';
import { evaluate } from './evaluate.js';
import { parseFilter } from './filter-parser.js';

const columns = { Name: 'N', Price: 'P', At: 'A', Note: 'X' };
const row = { Name: 'Red Mug', Price: 12.5, At: '2024-03-10T10:30:00.000Z', Note: null };

describe('evaluate (three-valued, like SQL)', () => {
  it.each([
    ["Name eq 'Red Mug'", true],
    ['Price gt 12 and Price lt 13', true],
    ['Price in (1, 12.5)', true],
    ["contains(Name,'d M') and not startswith(Name,'Mug')", true],
    ["tolower(Name) eq 'red mug' and length(Name) eq 7 and indexof(Name,'Mug') eq 4", true],
    ['year(At) eq 2024 and month(At) eq 3 and day(At) eq 10 and hour(At) eq 10 and minute(At) eq 30 and second(At) eq 0', true],
    ['At gt 2024-03-10T12:00:00+02:00', true],
    ['date(At) eq 2024-03-10 and time(At) lt 11:00', true],
    ['Note eq null', true],
    ["Note eq 'x'", null],
    ["not (Note eq 'x')", null],
    ["Note eq 'x' or Price gt 1", true],
    ["Note eq 'x' and Price gt 100", false],
  ] as const)('%s -> %s', (filter, want) => {
    expect(evaluate(parseFilter(filter, columns), row)).toBe(want);
  });
});
