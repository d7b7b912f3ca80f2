/**
 * What each step sends: one body, or (IsArray) one body per element of the ArrayProperty array.
 * Input selection, first match wins: IsArray + ArrayProperty; SourceProperty; DependsOn (the named
 * earlier step's result); otherwise the whole request body. TemplateTransformations set fields of
 * every object sent. Input problems are collected as 422 details, never thrown one by one.
 * Array sizes are checked for every step before the first one runs (arrayLimitProblems).
 */
import type { CompositeStep } from '../contract/model.js';
import type { ErrorDetail } from '../errors/wharf-error.js';
import { applyTemplates } from './templates.js';
import type { TemplateContext } from './templates.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface StepInput {
  /** One entry per upstream call; `array` says the result is an array of their results. */
  readonly items: readonly unknown[];
  readonly array: boolean;
}

function templated(value: unknown, step: CompositeStep, context: TemplateContext, where: string, problems: ErrorDetail[]): unknown {
  if (Object.keys(step.templateTransformations).length === 0) return value;
  if (value === undefined) return applyTemplates({}, step.templateTransformations, context, step.name, problems);
  if (!isObject(value)) {
    problems.push({ field: where, message: `${where} must be a JSON object for TemplateTransformations` });
    return value;
  }
  return applyTemplates(value, step.templateTransformations, context, step.name, problems);
}

export function stepInput(step: CompositeStep, body: JsonObject, context: TemplateContext, problems: ErrorDetail[]): StepInput {
  if (step.isArray) {
    const property = step.arrayProperty ?? '';
    const array = body[property];
    if (!Array.isArray(array)) {
      problems.push({ field: property, message: array === undefined ? `'${property}' is required (an array)` : `'${property}' must be an array` });
      return { items: [], array: true };
    }
    return { items: array.map((element, index) => templated(element, step, context, `${property}.${index}`, problems)), array: true };
  }
  if (step.sourceProperty !== null) {
    const value = body[step.sourceProperty];
    if (value === undefined) {
      problems.push({ field: step.sourceProperty, message: `'${step.sourceProperty}' is required` });
      return { items: [], array: false };
    }
    return { items: [templated(value, step, context, step.sourceProperty, problems)], array: false };
  }
  if (step.dependsOn !== null) {
    return { items: [templated(context.results.get(step.dependsOn), step, context, step.dependsOn, problems)], array: false };
  }
  return { items: [templated(body, step, context, 'body', problems)], array: false };
}

/**
 * One 422 detail per array step whose ArrayProperty holds more than `maxItems` elements, checked
 * before any step runs, so an oversized body makes no upstream call at all.
 */
export function arrayLimitProblems(steps: readonly CompositeStep[], body: JsonObject, maxItems: number): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const step of steps) {
    if (!step.isArray) continue;
    const property = step.arrayProperty ?? '';
    const array = body[property];
    if (Array.isArray(array) && array.length > maxItems && !seen.has(property)) {
      seen.add(property);
      problems.push({ field: property, message: `'${property}' has ${array.length} items; at most ${maxItems} are allowed (Proxy:CompositeMaxArrayItems)` });
    }
  }
  return problems;
}
