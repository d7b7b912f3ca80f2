import { describe, expect, it } from 'vitest';
import { applyTransforms, transformBody } from './response-transforms.js';

const t = { remove: ['Secret', 'Both'], rename: { Name: 'FullName', Both: 'Nope' }, mask: ['Email', 'Both'] };

describe('applyTransforms (one object)', () => {
  it.each([
    ['remove, rename, mask', { Id: 1, Name: 'a', Email: 'x@y', Secret: 's' }, { Id: 1, FullName: 'a', Email: '***' }],
    ['Remove wins over Rename and Mask', { Both: 1 }, {}],
    ['a masked null is masked too', { Email: null }, { Email: '***' }],
    ['untouched fields keep order and value', { B: [1], A: { x: 1 } }, { B: [1], A: { x: 1 } }],
  ] as const)('%s', (_n, given, want) => {
    expect(applyTransforms(given, t)).toEqual(want);
  });
});

describe('transformBody (a JSON body)', () => {
  it.each([
    ['array: each element', [{ Email: 'a' }, 5, { Name: 'n' }], [{ Email: '***' }, 5, { FullName: 'n' }]],
    ['envelope: rows inside value, envelope kept', { success: true, count: 1, value: [{ Secret: 1, Id: 2 }] }, { success: true, count: 1, value: [{ Id: 2 }] }],
    ['plain object', { Email: 'a', Id: 1 }, { Email: '***', Id: 1 }],
    ['scalar untouched', 'text', 'text'],
    ['null untouched', null, null],
  ] as const)('%s', (_n, given, want) => {
    expect(transformBody(given, t)).toEqual(want);
  });

  it('no rules: the same body object comes back', () => {
    const body = { Email: 'a' };
    expect(transformBody(body, { remove: [], rename: {}, mask: [] })).toBe(body);
  });
});
