/**
 * The one way to define a validator rule (typescript-eslint's `createRule`): a rule file calls `createRule` with its
 * whole definition, `meta` (id, severity, docs, and its messages keyed by message id) and either `create` (a file
 * rule: visitors joining each file's single traversal) or `check` (a project rule: over the manifest, the packages
 * and the import graph). The message ids of `meta.messages` become the only ids the rule's `context.report` accepts:
 * a misspelt id does not compile. Nothing else needs registering but the rule's entry in `rules/index.ts`.
 */
import type { RuleVisitor } from '@skein/discovery';
import type { CodeRole, FileRule, FileRuleContext, ProjectRule, ProjectRuleContext, RuleMeta } from './types.js';

/** A file rule's definition: its meta, the roles of the files it looks at, and its visitors for one file. */
export interface FileRuleDefinition<MessageIds extends string> {
  meta: RuleMeta<MessageIds>;
  /** Roles of the files this rule looks at. */
  appliesTo: readonly CodeRole[];
  /**
   * A `VisitScope` pattern (`wordPattern` of @skein/discovery) that every file the rule can report on matches: for a
   * cleanly parsed file whose text lacks it, `create()` is not called. Absent: every file of its roles.
   */
  words?: RegExp;
  create: (context: FileRuleContext<MessageIds>) => RuleVisitor;
}

/** A project rule's definition: its meta and the check over the whole project. */
export interface ProjectRuleDefinition<MessageIds extends string> {
  meta: RuleMeta<MessageIds>;
  check: (context: ProjectRuleContext<MessageIds>) => void | Promise<void>;
}

/**
 * Defines a rule from its whole definition. `MessageIds` is inferred from the keys of `meta.messages`.
 * @returns a `FileRule` when the definition has `create`, a `ProjectRule` when it has `check`
 * @throws Error when the id is not shaped `<category>/<name>` (kebab-case) or `messages` is empty: a mistake that
 *   every test loading the rule shows at once
 */
export function createRule<const MessageIds extends string>(definition: FileRuleDefinition<MessageIds>): FileRule<MessageIds>;
export function createRule<const MessageIds extends string>(definition: ProjectRuleDefinition<MessageIds>): ProjectRule<MessageIds>;
export function createRule<const MessageIds extends string>(
  definition: FileRuleDefinition<MessageIds> | ProjectRuleDefinition<MessageIds>,
): FileRule<MessageIds> | ProjectRule<MessageIds> {
  const meta = defineRuleMeta(definition.meta);
  if ('create' in definition) {
    const rule: FileRule<MessageIds> = { kind: 'file', meta, appliesTo: definition.appliesTo, create: definition.create };
    if (definition.words !== undefined) rule.words = definition.words;
    return rule;
  }
  return { kind: 'project', meta, check: definition.check };
}

/**
 * Checks and returns the meta of a finding that has no visitors or check of its own (the engine reports it, as with
 * `fs/outside-package`); `createRule` checks every rule's meta the same way.
 * @throws Error when the id is not shaped `<category>/<name>` (kebab-case) or `messages` is empty
 */
export function defineRuleMeta<const MessageIds extends string>(meta: RuleMeta<MessageIds>): RuleMeta<MessageIds> {
  if (!/^[a-z]+\/[a-z]+(-[a-z]+)*$/.test(meta.id)) throw new Error(`rule id "${meta.id}" is not shaped <category>/<name> in kebab-case`);
  if (Object.keys(meta.messages).length === 0) throw new Error(`rule ${meta.id} has no messages`);
  return meta;
}
