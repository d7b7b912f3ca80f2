/**
 * Composite steps: unique names; each Endpoint is an existing Proxy endpoint (not a
 * Composite) that allows the step's Method; DependsOn and `$prev.<step>` templates name an
 * earlier step.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { CompositeConfig, ProxyConfig } from '../../model/config.js';
import { findByRoute } from '../../model/references.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

const PREV = /^\$prev\.([^.]+)/;

export const compositeStepsRule: EntityRule = {
  name: 'composite-steps',
  scope: 'entity',
  readsOtherEntities: true,
  codes: ['composite-step-duplicate', 'composite-step-target', 'composite-step-method', 'composite-step-depends-on', 'composite-template-prev'],
  kinds: ['composite'],
  check(ctx, project) {
    const steps = (ctx.config as unknown as CompositeConfig).CompositeConfig.Steps;
    const out: Diagnostic[] = [];
    const earlier: string[] = [];
    steps.forEach((step, i) => {
      const at = (...rest: string[]) => pointer('/CompositeConfig', 'Steps', i, ...rest);
      const before = `Steps before it: ${earlier.length ? earlier.join(', ') : 'none'}.`;
      if (earlier.includes(step.Name)) {
        out.push(error(ctx, 'composite-step-duplicate', at('Name'), `Step name '${step.Name}' is used by an earlier step`));
      }

      const proxies = findByRoute(project.contexts, step.Endpoint, ['proxy']);
      const target = proxies[0];
      if (!target) {
        const other = findByRoute(project.contexts, step.Endpoint)[0];
        const message = other
          ? `Step '${step.Name}' calls '${step.Endpoint}', a ${other.kind} endpoint; steps call Proxy endpoints only`
          : `Step '${step.Name}' calls '${step.Endpoint}', which is not a Proxy endpoint of this project`;
        out.push(error(ctx, 'composite-step-target', at('Endpoint'), message, { hint: "Endpoint is '{namespace}/{endpoint}' or '{endpoint}' of a Proxy endpoint." }));
      } else if (project.isSchemaValid(target)) {
        const methods = (target.config as unknown as ProxyConfig).Methods;
        if (!methods.includes(step.Method)) {
          out.push(
            error(ctx, 'composite-step-method', at('Method'), `Step '${step.Name}' uses ${step.Method}, which ${target.routePath} does not allow`, {
              hint: `${target.parsed.source.file} allows ${methods.join(', ')}.`,
            }),
          );
        }
      }

      if (step.DependsOn !== undefined && !earlier.includes(step.DependsOn)) {
        out.push(error(ctx, 'composite-step-depends-on', at('DependsOn'), `Step '${step.Name}' depends on '${step.DependsOn}', which is not an earlier step`, { hint: before }));
      }
      for (const [field, template] of Object.entries(step.TemplateTransformations ?? {})) {
        const ref = PREV.exec(template)?.[1];
        if (ref !== undefined && !earlier.includes(ref)) {
          out.push(
            error(ctx, 'composite-template-prev', at('TemplateTransformations', field), `Template '${template}' reads step '${ref}', which is not an earlier step`, { hint: before }),
          );
        }
      }
      earlier.push(step.Name);
    });
    return out;
  },
};
