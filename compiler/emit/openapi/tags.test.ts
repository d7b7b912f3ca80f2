import { describe, expect, it } from 'vitest';
import type { EndpointModel } from '../../../runtime/contract/index.js';
import { customers, orderSummary, products, byCategory, shipments } from '../__golden__/models.js';
import { planTags } from './tags.js';

const inNs = (namespace: string | null, displayName: string | null, tagDescription: string | null = null, id = namespace ?? 'x'): EndpointModel => ({
  ...customers,
  id: `sql:${id}/E`,
  namespace,
  namespaceDisplayName: displayName,
  documentation: { tagDescription, methodDescriptions: {} },
});

describe('planTags', () => {
  const cases: [string, { given: EndpointModel[]; want: unknown[] }][] = [
    ['namespace named by its display name, description from TagDescription', {
      given: [products, byCategory],
      want: [{ name: 'Inventory', kind: 'nav', description: 'Products and stock of the **demo warehouse**.' }],
    }],
    ['without display name the namespace is the name', { given: [shipments], want: [{ name: 'Shipping', kind: 'nav' }] }],
    ['nested namespace names its parent; a parent without endpoints is created', {
      given: [orderSummary],
      want: [
        { name: 'Sales', kind: 'nav' },
        { name: 'Sales reports', kind: 'nav', parent: 'Sales', description: 'Reporting views over sales.' },
      ],
    }],
    ['parent uses its own display name when an endpoint sets it', {
      given: [inNs('A', 'Alpha'), inNs('A/B/C', null)],
      want: [
        { name: 'A/B', kind: 'nav', parent: 'Alpha' },
        { name: 'A/B/C', kind: 'nav', parent: 'A/B' },
        { name: 'Alpha', kind: 'nav' },
      ],
    }],
    ['first endpoint (in the given id order) that sets a value wins', {
      given: [inNs('N', null, null, 'N1'), inNs('N', 'First', 'one', 'N2'), inNs('N', 'Second', 'two', 'N3')],
      want: [{ name: 'First', kind: 'nav', description: 'one' }],
    }],
    ['legacy endpoints share the Default tag', {
      given: [customers],
      want: [{ name: 'Default', kind: 'nav', description: 'Endpoints without a namespace (legacy layout).' }],
    }],
    ['two namespaces with one display name share one tag', {
      given: [inNs('A', 'Same'), inNs('B', 'Same')],
      want: [{ name: 'Same', kind: 'nav' }],
    }],
    ['no endpoints, no tags', { given: [], want: [] }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(planTags(given).tags).toEqual(want);
  });

  it('tags each endpoint with its namespace tag', () => {
    const plan = planTags([products, customers, orderSummary]);
    expect([products, customers, orderSummary].map(plan.tagOf)).toEqual(['Inventory', 'Default', 'Sales reports']);
  });
});
