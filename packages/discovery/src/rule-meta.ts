/**
 * The one shape of a rule's static description, for the core's own findings and for every validator rule alike (the
 * shape typescript-eslint gives its rules' `meta`), and the one renderer of its message templates. Plain data and a
 * pure function: nothing here imports another file of the package but the finding types.
 */
import type { Severity } from './finding.js';

/** A message and its hint, with `{{name}}` placeholders filled from the finding's data. */
export interface MessageTemplate {
  message: string;
  /** How to fix it (same placeholders). */
  hint?: string;
}

/** Where a rule is explained. */
export interface RuleDocs {
  /** What the rule catches, one sentence. */
  description: string;
  /** An absolute URL of the rule's docs page, when it is published somewhere (reporters such as SARIF link it). */
  url?: string;
  /** The number of the package rule it enforces, as numbered in `docs/package-rules.md`; absent for robustness findings. */
  packageRule?: number;
}

/**
 * Static facts about one rule: its id (`<category>/<name>`; its docs page is `docs/rules/<id>.md`), the severity of
 * every finding it reports, its docs, and its messages keyed by message id. `MessageIds` narrows the ids a rule may
 * report.
 */
export interface RuleMeta<MessageIds extends string = string> {
  id: string;
  severity: Severity;
  docs: RuleDocs;
  messages: Readonly<Record<MessageIds, MessageTemplate>>;
}

/** The docs page of a rule, relative to the repository root (the id's `/` is a folder: `docs/rules/reexport/commonjs.md`). */
export function docsPath(id: string): string {
  return `docs/rules/${id}.md`;
}

/** Replaces every `{{key}}` in `template` with `data[key]` (unknown keys are left as written). */
export function renderMessage(template: string, data: Readonly<Record<string, string>> | undefined): string {
  if (!data) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? (data[key] as string) : whole));
}
