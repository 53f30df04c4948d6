/**
 * StrykerJS ignorer plugin `message-text`: no mutants in the text of findings, only in the behaviour that decides
 * which finding is reported, where, and how severe. Ignored (the node and everything inside it):
 * - the message and hint arguments of discovery's `diagnostics.report(ruleId, file, position, message, hint)`;
 * - properties named `message`, `hint` (findings built as objects), `messages`, `hints`, `description`, `summary`,
 *   `docs` (rule metadata) and the `data` of a rule's `context.report({ messageId, data })` (message placeholders);
 * - top-level `const SCREAMING_CASE = '…'` / `` `…` `` string constants (shared hint fragments).
 *
 * Why a plugin and not `mutator.excludedMutations: ['StringLiteral']`: that would also drop the mutants of strings
 * that are behaviour (file roles, rule ids, `'workflow.js'`, `'node_modules'`, `'default'` export names, messageIds),
 * and a surviving mutant there is a real gap. `// Stryker disable` comments would put tool markup into every rule.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const META_TEXT = new Set(['message', 'hint', 'messages', 'hints', 'description', 'summary', 'docs']);

/** True when `path` is a call `<anything>.report(...)` or `report(...)`. */
function isReportCall(path) {
  if (!path?.isCallExpression()) return false;
  const callee = path.node.callee;
  if (callee.type === 'Identifier') return callee.name === 'report';
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'report';
}

const ignorer = {
  shouldIgnore(path) {
    // diagnostics.report(ruleId, file, position, message, hint): arguments 3 and 4.
    if (path.listKey === 'arguments' && typeof path.key === 'number' && path.key >= 3 && isReportCall(path.parentPath)) return 'message text of a finding';
    if (path.isObjectProperty() && !path.node.computed) {
      const key = path.node.key.type === 'Identifier' ? path.node.key.name : path.node.key.type === 'StringLiteral' ? path.node.key.value : null;
      if (key !== null && META_TEXT.has(key)) return 'message text of a finding or rule';
      if (key === 'data' && isReportCall(path.parentPath?.parentPath)) return 'message placeholders of a finding';
    }
    if (path.isVariableDeclarator() && path.node.id.type === 'Identifier' && /^[A-Z][A-Z0-9_]*$/.test(path.node.id.name)) {
      const init = path.node.init;
      if (init && (init.type === 'StringLiteral' || init.type === 'TemplateLiteral') && path.parentPath?.parentPath?.isProgram())
        return 'message text constant';
    }
    return undefined;
  },
};

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'message-text', ignorer)];
