/**
 * A validator rule's metadata: severity, description, SPEC rule and docs page come from the one registry
 * (`RULES` of `@skein/discovery`); the rule adds only its message and hint templates.
 */
import { docsPath, RULES, type RuleId } from '@skein/discovery';
import type { RuleMeta } from '../types.js';

/**
 * Builds a rule's `meta` from the registry entry of `id` and the rule's templates.
 * @throws Error when `id` is not in the registry (a build-time mistake, caught by every test that loads the rule)
 */
export function ruleMeta(id: RuleId, templates: { messages: Record<string, string>; hints: Record<string, string> }): RuleMeta {
  const entry: { severity: RuleMeta['severity']; specRule?: number; summary: string } = RULES[id];
  if (!entry) throw new Error(`rule ${id} is not in the diagnostics registry`);
  const meta: RuleMeta = { id, severity: entry.severity, description: entry.summary, docs: { path: docsPath(id) }, ...templates };
  if (entry.specRule !== undefined) meta.specRule = entry.specRule;
  return meta;
}
