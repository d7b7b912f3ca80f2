/**
 * Hand-written normalized models for the emit golden tests: one endpoint of each kind, a nested
 * namespace whose parent has no endpoint of its own, a legacy (namespace-less) endpoint, a hidden
 * endpoint, a deprecated one and a table-valued function. Every field is filled in, as normalize
 * would (emitters never fill defaults).
 */
import type {
  CompositeEndpoint,
  Documentation,
  EndpointModel,
  FilesEndpoint,
  ProxyEndpoint,
  SqlEndpoint,
  StaticEndpoint,
  WebhookEndpoint,
} from '../../../runtime/contract/index.js';

const noDocs: Documentation = { tagDescription: null, methodDescriptions: {} };
const noTransforms = { remove: [], rename: {}, mask: [] };

const common = {
  namespaceSource: 'directory',
  routeAliases: [],
  namespaceDisplayName: null,
  allowedEnvironments: null,
  enabled: true,
  hidden: false,
  deprecated: false,
  documentation: noDocs,
} as const;

export const products: SqlEndpoint = {
  ...common,
  id: 'sql:Inventory/Products',
  kind: 'sql',
  name: 'Products',
  namespace: 'Inventory',
  routePath: 'Inventory/Products',
  sourceFile: 'endpoints/SQL/Inventory/Products/entity.json',
  displayName: 'Products',
  namespaceDisplayName: 'Inventory',
  documentation: {
    tagDescription: 'Products and stock of the **demo warehouse**.',
    methodDescriptions: { GET: 'List products.', MERGE: 'Alias of PATCH.' },
  },
  methods: ['GET', 'QUERY', 'POST', 'PUT', 'PATCH', 'DELETE', 'MERGE'],
  schema: 'inventory',
  objectName: 'Products',
  objectType: 'Table',
  primaryKey: 'ProductId',
  columns: [
    { db: 'ProductId', name: 'ProductId' },
    { db: 'ProductName', name: 'Name' },
    { db: 'UnitPrice', name: 'Price' },
    { db: 'CostPrice', name: 'Cost' },
  ],
  functionParameters: [],
  procedure: null,
  writeMode: 'Table', requiredColumns: [], columnValidation: [],
  responseTransforms: { remove: ['Cost'], rename: { Price: 'UnitPrice' }, mask: [] },
  relationships: [
    { name: 'Category', targetId: 'sql:Inventory/Categories', localColumn: 'CategoryId', targetColumn: 'CategoryId', multiplicity: 'ToOne' },
  ],
  cacheDurationSeconds: null,
  maxBatchRows: null,
  paging: 'Skip',
};

export const byCategory: SqlEndpoint = {
  ...common,
  id: 'sql:Inventory/ProductsByCategory',
  kind: 'sql',
  name: 'ProductsByCategory',
  namespace: 'Inventory',
  routePath: 'Inventory/ProductsByCategory',
  sourceFile: 'endpoints/SQL/Inventory/ProductsByCategory/entity.json',
  displayName: 'Products by category',
  methods: ['GET'],
  schema: 'inventory',
  objectName: 'fn_ProductsByCategory',
  objectType: 'TableValuedFunction',
  primaryKey: null,
  columns: [
    { db: 'ProductId', name: 'ProductId' },
    { db: 'ProductName', name: 'Name' },
  ],
  functionParameters: [
    { name: 'CategoryId', sqlType: 'int', source: 'Path', position: 1, required: true, defaultValue: null, validationPattern: '^[0-9]+$' },
    { name: 'MinPrice', sqlType: 'decimal(10,2)', source: 'Query', position: null, required: false, defaultValue: 'DEFAULT', validationPattern: null },
  ],
  procedure: null,
  writeMode: 'Procedure', requiredColumns: [], columnValidation: [],
  responseTransforms: noTransforms,
  relationships: [],
  cacheDurationSeconds: 60,
  maxBatchRows: null,
  paging: 'Skip',
};

export const customers: SqlEndpoint = {
  ...common,
  id: 'sql:Customers',
  kind: 'sql',
  name: 'Customers',
  namespace: null,
  namespaceSource: 'none',
  routePath: 'Customers',
  sourceFile: 'endpoints/SQL/Customers/entity.json',
  displayName: 'Customers',
  deprecated: true,
  methods: ['GET'],
  schema: 'dbo',
  objectName: 'Customers',
  objectType: 'View',
  primaryKey: 'Id',
  columns: [
    { db: 'Id', name: 'Id' },
    { db: 'Email', name: 'Email' },
  ],
  functionParameters: [],
  procedure: null,
  writeMode: 'Procedure', requiredColumns: [], columnValidation: [],
  responseTransforms: { remove: [], rename: {}, mask: ['Email'] },
  relationships: [],
  cacheDurationSeconds: null,
  maxBatchRows: null,
  paging: 'Skip',
};

export const auditTrail: SqlEndpoint = {
  ...customers,
  id: 'sql:Internal/AuditTrail',
  name: 'AuditTrail',
  namespace: 'Internal',
  namespaceSource: 'directory',
  routePath: 'Internal/AuditTrail',
  sourceFile: 'endpoints/SQL/Internal/AuditTrail/entity.json',
  displayName: 'Audit trail',
  deprecated: false,
  hidden: true,
  objectName: 'AuditTrail',
  objectType: 'Table',
  responseTransforms: noTransforms,
};

export const orderSummary: SqlEndpoint = {
  ...customers,
  id: 'sql:Sales/Reports/OrderSummary',
  name: 'OrderSummary',
  namespace: 'Sales/Reports',
  namespaceSource: 'directory',
  routePath: 'Sales/Reports/OrderSummary',
  sourceFile: 'endpoints/SQL/Sales/Reports/OrderSummary/entity.json',
  displayName: 'Order summary',
  namespaceDisplayName: 'Sales reports',
  deprecated: false,
  documentation: { tagDescription: 'Reporting views over sales.', methodDescriptions: {} },
  objectName: 'vw_OrderSummary',
  columns: [
    { db: 'OrderId', name: 'OrderId' },
    { db: 'Total', name: 'Total' },
  ],
  primaryKey: 'OrderId',
  responseTransforms: noTransforms,
};

export const shipments: ProxyEndpoint = {
  ...common,
  id: 'proxy:Shipping/Shipments',
  kind: 'proxy',
  name: 'Shipments',
  namespace: 'Shipping',
  routePath: 'Shipping/Shipments',
  sourceFile: 'endpoints/Proxy/Shipping/Shipments/entity.json',
  displayName: 'Shipments',
  methods: ['GET', 'POST', 'DELETE', 'MERGE'],
  url: 'http://127.0.0.1:9100/shipments',
  fallbackUrls: [],
  retry: { attempts: 1, delayMs: 200 },
  responseTransforms: noTransforms,
  supportsOData: true,
  rewriteUrls: true,
  forwardCookies: false,
  timeoutMs: 2500,
  contentType: 'application/json',
  methodTranslation: { MERGE: 'PATCH' },
  appendHeaders: [],
  deletePatterns: [{ style: 'PathParameter', parameter: null }],
  cacheDurationSeconds: null,
};

export const shipOrder: CompositeEndpoint = {
  ...common,
  id: 'composite:Shipping/ShipOrder',
  kind: 'composite',
  name: 'ShipOrder',
  namespace: 'Shipping',
  routePath: 'Shipping/ShipOrder',
  routeAliases: ['composite/ShipOrder'],
  sourceFile: 'endpoints/Proxy/Shipping/ShipOrder/entity.json',
  displayName: 'Ship an order',
  documentation: { tagDescription: null, methodDescriptions: { POST: 'Creates a shipment and prints its label.' } },
  methods: ['POST'],
  url: 'http://127.0.0.1:9100',
  compositeName: 'ShipOrder',
  description: 'Shipment plus label in one call.',
  steps: [
    { name: 'Create', endpoint: 'Shipping/Shipments', targetId: 'proxy:Shipping/Shipments', method: 'POST', isArray: false, arrayProperty: null, sourceProperty: 'Shipment', dependsOn: null, templateTransformations: {} },
  ],
};

export const countries: StaticEndpoint = {
  ...common,
  id: 'static:Reference/Countries',
  kind: 'static',
  name: 'Countries',
  namespace: 'Reference',
  routePath: 'Reference/Countries',
  sourceFile: 'endpoints/Static/Reference/Countries/entity.json',
  displayName: 'Countries',
  methods: ['GET', 'QUERY'],
  contentFile: 'endpoints/Static/Reference/Countries/countries.json',
  contentType: 'application/json',
  enableFiltering: true,
  responseTransforms: { remove: [], rename: {}, mask: [] },
};

export const logo: StaticEndpoint = {
  ...countries,
  id: 'static:Reference/Logo',
  name: 'Logo',
  routePath: 'Reference/Logo',
  sourceFile: 'endpoints/Static/Reference/Logo/entity.json',
  displayName: 'Logo',
  methods: ['GET'],
  contentFile: 'endpoints/Static/Reference/Logo/logo.png',
  contentType: 'image/png',
  enableFiltering: false,
};

export const paymentEvents: WebhookEndpoint = {
  ...common,
  id: 'webhook:Integrations/PaymentEvents',
  kind: 'webhook',
  name: 'PaymentEvents',
  namespace: 'Integrations',
  routePath: 'Integrations/PaymentEvents',
  sourceFile: 'endpoints/Webhooks/Integrations/PaymentEvents/entity.json',
  displayName: 'Payment events',
  methods: ['POST'],
  schema: 'integrations',
  objectName: 'WebhookEvents',
  webhookIds: ['payment-succeeded', 'payment-failed'],
};

export const invoices: FilesEndpoint = {
  ...common,
  id: 'files:files/Documents/Invoices',
  kind: 'files',
  name: 'Invoices',
  namespace: 'Documents',
  routePath: 'files/Documents/Invoices',
  sourceFile: 'endpoints/Files/Documents/Invoices/entity.json',
  displayName: 'Invoices',
  methods: ['GET', 'POST', 'DELETE'],
  storageType: 'Local',
  baseDirectory: '{env}/invoices',
  storageDirectory: null,
  allowedExtensions: ['.jpg', '.pdf', '.png'],
  maxFileSizeBytes: 10485760,
};

/** Every fixture endpoint, deliberately not in id order. */
export const goldenModels: readonly EndpointModel[] = [
  shipments,
  products,
  invoices,
  customers,
  orderSummary,
  paymentEvents,
  auditTrail,
  countries,
  byCategory,
  shipOrder,
  logo,
];
