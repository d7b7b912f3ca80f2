/** Proxy and Composite endpoint normalization. */
import type { CompositeEndpoint, ProxyEndpoint } from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';
import type { CompositeConfig, ProxyConfig } from './config.js';
import { DEFAULTS } from './defaults.js';
import { resolveReference, responseTransforms, type EndpointBase } from './normalize-shared.js';
import { parseAppendHeaders, parseMethodTranslation } from './proxy-methods.js';

export function normalizeProxy(ctx: EntityContext, base: EndpointBase): ProxyEndpoint {
  const c = ctx.config as unknown as ProxyConfig;
  const custom = c.CustomProperties ?? {};
  const patterns = c.DeletePatterns && c.DeletePatterns.length > 0 ? c.DeletePatterns : DEFAULTS.proxy.DeletePatterns;
  return {
    ...base,
    kind: 'proxy',
    url: c.Url,
    fallbackUrls: [...(c.FallbackUrls ?? DEFAULTS.proxy.FallbackUrls)],
    retry: {
      attempts: c.Retry?.Attempts ?? DEFAULTS.proxy.RetryAttempts,
      delayMs: c.Retry?.DelayMs ?? DEFAULTS.proxy.RetryDelayMs,
    },
    responseTransforms: responseTransforms(c.ResponseTransforms),
    supportsOData: c.SupportsOData ?? DEFAULTS.proxy.SupportsOData,
    rewriteUrls: c.RewriteUrls ?? DEFAULTS.proxy.RewriteUrls,
    forwardCookies: c.ForwardCookies ?? DEFAULTS.proxy.ForwardCookies,
    timeoutMs: c.TimeoutMs ?? null,
    contentType: custom.ContentType ?? DEFAULTS.proxy.ContentType,
    methodTranslation: custom.HttpMethodTranslation ? parseMethodTranslation(custom.HttpMethodTranslation).value : {},
    appendHeaders: custom.HttpMethodAppendHeaders ? parseAppendHeaders(custom.HttpMethodAppendHeaders).value : [],
    deletePatterns: patterns.map((p: { Style?: string; Parameter?: string }) => ({
      style: (p.Style ?? DEFAULTS.proxy.DeletePatternStyle) as ProxyEndpoint['deletePatterns'][number]['style'],
      parameter: p.Parameter ?? null,
    })),
    cacheDurationSeconds: c.CacheDurationSeconds ?? null,
  };
}

export function normalizeComposite(ctx: EntityContext, base: EndpointBase, contexts: readonly EntityContext[]): CompositeEndpoint {
  const c = ctx.config as unknown as CompositeConfig;
  return {
    ...base,
    kind: 'composite',
    url: c.Url,
    compositeName: c.CompositeConfig.Name,
    description: c.CompositeConfig.Description ?? null,
    steps: c.CompositeConfig.Steps.map((s) => ({
      name: s.Name,
      endpoint: s.Endpoint,
      targetId: resolveReference(ctx, contexts, s.Endpoint, 'proxy'),
      method: s.Method,
      isArray: s.IsArray ?? DEFAULTS.composite.StepIsArray,
      arrayProperty: s.ArrayProperty ?? null,
      sourceProperty: s.SourceProperty ?? null,
      dependsOn: s.DependsOn ?? null,
      templateTransformations: { ...(s.TemplateTransformations ?? DEFAULTS.composite.TemplateTransformations) },
    })),
  };
}
