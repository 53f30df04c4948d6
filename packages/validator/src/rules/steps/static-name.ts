/**
 * `steps/static-name` (SPEC rule 9): every `step({ name })` and `evaluator({ name })` gives its name as a
 * statically known string (a literal, or a top-level `const` holding one), so discovery can register
 * `<workflow>#<name>` activity types without running the file. Supersedes discovery's
 * `activity/non-static-name` on the same line.
 */
import type { FileRule, RuleMeta } from '../../types.js';
import { staticString } from '../util/ast.js';
import { visitDefinitionCalls } from '../util/visitors.js';

export const meta: RuleMeta = {
  id: 'steps/static-name',
  severity: 'error',
  description: 'Step and evaluator names are string literals (or consts holding one), known without running the file.',
  specRule: 9,
  docs: { path: 'docs/rules/steps/static-name.md' },
  messages: {
    notObject: 'The argument of `{{kind}}(...)` is not an object literal, so its `name` is not statically known.',
    missingName: '`{{kind}}({ ... })` has no `name` property that can be read statically.',
    dynamicName: 'The `name` of this {{kind}} is computed at runtime; it must be a string literal or a const holding one.',
  },
  hints: {
    notObject: 'Pass the configuration inline: `{{kind}}({ name: "myStep", fn: ... })`.',
    missingName: 'Add `name: "myStep"` to the object passed to `{{kind}}()`.',
    dynamicName: 'Write `name: "myStep"` (or `const NAME = "myStep"` at top level and `name: NAME`).',
  },
};

export const rule: FileRule = {
  kind: 'file',
  meta,
  supersedes: ['activity/non-static-name'],
  appliesTo: ['steps', 'evaluators', 'shared-steps', 'shared-evaluators'],
  create(context) {
    return visitDefinitionCalls(['step', 'evaluator'], (path, kind) => {
      const arg = path.node.arguments[0];
      if (!arg || arg.type !== 'ObjectExpression') {
        context.report({ node: arg ?? path.node, messageId: 'notObject', data: { kind } });
        return;
      }
      const nameProp = [...arg.properties].reverse().find(
        (p) => p.type === 'ObjectProperty' && !p.computed && ((p.key.type === 'Identifier' && p.key.name === 'name') || (p.key.type === 'StringLiteral' && p.key.value === 'name')),
      );
      if (!nameProp || nameProp.type !== 'ObjectProperty') {
        context.report({ node: arg, messageId: 'missingName', data: { kind } });
        return;
      }
      if (staticString(nameProp.value, path) === null) context.report({ node: nameProp.value, messageId: 'dynamicName', data: { kind } });
    });
  },
};
