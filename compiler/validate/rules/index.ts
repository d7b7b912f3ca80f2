/** Every semantic rule, in the order they run. */
import type { Rule } from '../rule.js';
import { allowedColumnsRule } from './allowed-columns.js';
import { databaseSnapshotRule } from './database-snapshot.js';
import { authorizationRulesRule } from './authorization-rules.js';
import { compositeStepsRule } from './composite-steps.js';
import { duplicateRouteRule } from './duplicate-route.js';
import { endpointNameRule } from './endpoint-name.js';
import { filesBaseDirectoryRule } from './files-base-directory.js';
import { functionParametersRule } from './function-parameters.js';
import { methodMatrixRule } from './method-matrix.js';
import { namespaceReservedRule } from './namespace-reserved.js';
import { namespaceSegmentRule } from './namespace-segment.js';
import { primaryKeyRule } from './primary-key.js';
import { proxyCustomPropertiesRule } from './proxy-custom-properties.js';
import { proxyUrlsRule } from './proxy-urls.js';
import { proxyUrlBlockedRule } from './proxy-url-blocked.js';
import { relationshipsRule } from './relationships.js';
import { schemaReferenceRule } from './schema-reference.js';
import { staticContentRule } from './static-content.js';
import { tableValuedFunctionRule } from './table-valued-function.js';
import { webhookNamespaceRule } from './webhook-namespace.js';
import { writeColumnsRule } from './write-columns.js';
import { writeStrategyRule } from './write-strategy.js';
import { pagingBatchRule } from './paging-batch.js';

export const RULES: readonly Rule[] = [
  namespaceSegmentRule,
  namespaceReservedRule,
  endpointNameRule,
  webhookNamespaceRule,
  schemaReferenceRule,
  duplicateRouteRule,
  methodMatrixRule,
  tableValuedFunctionRule,
  functionParametersRule,
  allowedColumnsRule,
  primaryKeyRule,
  writeStrategyRule,
  writeColumnsRule,
  pagingBatchRule,
  relationshipsRule,
  databaseSnapshotRule,
  authorizationRulesRule,
  staticContentRule,
  compositeStepsRule,
  filesBaseDirectoryRule,
  proxyUrlsRule,
  proxyUrlBlockedRule,
  proxyCustomPropertiesRule,
];

export { isSkipped } from './namespace-reserved.js';
