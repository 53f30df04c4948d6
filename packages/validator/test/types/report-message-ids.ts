/**
 * Compiled (never run) by create-rule.test.ts: `context.report` accepts only the rule's own message ids. Each
 * `@ts-expect-error` below must meet an error, or the compiler reports the directive itself as unused.
 */
import { createRule } from '../../src/create-rule.js';

export const fileRule = createRule({
  meta: {
    id: 'workflow/example',
    severity: 'error',
    docs: { description: 'An example rule for the type check.' },
    messages: { found: { message: 'Found {{name}}.', hint: 'Remove {{name}}.' }, other: { message: 'Other.' } },
  },
  appliesTo: ['workflow'],
  create(context) {
    return {
      Identifier(path) {
        context.report({ node: path.node, messageId: 'found', data: { name: path.node.name } });
        context.report({ node: path.node, messageId: 'other' });
        // @ts-expect-error a message id the rule does not declare
        context.report({ node: path.node, messageId: 'fonud' });
      },
    };
  },
});

export const projectRule = createRule({
  meta: {
    id: 'packaging/example',
    severity: 'warning',
    docs: { description: 'An example project rule for the type check.', packageRule: 5 },
    messages: { missing: { message: '{{package}} lacks it.' } },
  },
  check(context) {
    context.report({ file: '/p/package.json', messageId: 'missing', data: { package: 'p' } });
    // @ts-expect-error a message id of another rule
    context.report({ file: '/p/package.json', messageId: 'found' });
  },
});

createRule({
  // @ts-expect-error a severity that does not exist
  meta: { id: 'workflow/bad-severity', severity: 'fatal', docs: { description: 'x' }, messages: { m: { message: 'm' } } },
  check() {},
});
