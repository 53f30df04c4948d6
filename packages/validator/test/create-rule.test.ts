/**
 * `createRule`: the one way to define a rule. The rule keeps the meta it was given and reports through it (that its
 * `context.report` accepts only its own message ids is checked by the compiler: create-rule-types.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createRule, defineRuleMeta } from '../src/index.js';
import { lint } from '../src/testing.js';

describe('createRule', () => {
  const meta = {
    id: 'workflow/example',
    severity: 'warning',
    docs: { description: 'Flags calls of example().', packageRule: 12 },
    messages: {
      call: { message: 'example() is called with {{count}} arguments.', hint: 'Call it without {{count}}.' },
      bare: { message: 'example() is named.' },
    },
  } as const;

  it('makes a file rule of a definition with create, reporting through its meta', () => {
    const rule = createRule({
      meta,
      appliesTo: ['workflow'],
      create(context) {
        return {
          CallExpression(path) {
            if (path.node.callee.type === 'Identifier' && path.node.callee.name === 'example') {
              context.report({ node: path.node, messageId: 'call', data: { count: String(path.node.arguments.length) } });
            }
          },
        };
      },
    });
    expect(rule).toMatchObject({ kind: 'file', meta, appliesTo: ['workflow'] });
    expect('words' in rule).toBe(false);
    expect(lint(rule, 'x();\n  example(1, 2);\n')).toEqual([
      {
        ruleId: 'workflow/example',
        severity: 'warning',
        packageRule: 12,
        file: '/pkg/hello/workflow.js',
        line: 2,
        column: 3,
        message: 'example() is called with 2 arguments.',
        hint: 'Call it without 2.',
        messageId: 'call',
        data: { count: '2' },
      },
    ]);
  });

  it('keeps a file rule’s words and leaves out a hint the message lacks; the tester catches words that do not hold', () => {
    const rule = createRule({
      meta,
      appliesTo: ['workflow'],
      words: /\bexample\b/,
      create: (context) => ({ Identifier: (path) => path.node.name === 'example' && context.report({ node: path.node, messageId: 'bare' }) }),
    });
    expect(rule.words).toEqual(/\bexample\b/);
    expect(lint(rule, 'example;\n')).toEqual([
      {
        ruleId: 'workflow/example',
        severity: 'warning',
        packageRule: 12,
        file: '/pkg/hello/workflow.js',
        line: 1,
        column: 1,
        message: 'example() is named.',
        messageId: 'bare',
      },
    ]);
    expect(lint(rule, 'other;\n')).toEqual([]);
    const careless = createRule({
      meta,
      appliesTo: ['workflow'],
      words: /\bexample\b/,
      create: (context) => ({ Identifier: (path) => context.report({ node: path.node, messageId: 'bare' }) }),
    });
    expect(() => lint(careless, 'other;\n')).toThrow('the walk that skips reports [], the full walk');
  });

  it('makes a project rule of a definition with check', () => {
    const check = () => {};
    expect(createRule({ meta, check })).toEqual({ kind: 'project', meta, check });
  });

  it('refuses an id not shaped <category>/<name> and a rule without messages', () => {
    expect(() => defineRuleMeta({ ...meta, id: 'Example' })).toThrow('rule id "Example" is not shaped <category>/<name> in kebab-case');
    expect(() => createRule({ meta: { ...meta, id: 'workflow/Example' }, check() {} })).toThrow('is not shaped');
    expect(() => defineRuleMeta({ ...meta, messages: {} })).toThrow('rule workflow/example has no messages');
    for (const id of ['1workflow/example', 'workflow/example!', 'workflow/example-', 'workflow/-x', 'workflow'])
      expect(() => defineRuleMeta({ ...meta, id }), id).toThrow('is not shaped');
    for (const id of ['workflow/no-node-globals', 'fs/outside-package', 'steps/import-style']) expect(defineRuleMeta({ ...meta, id }).id).toBe(id);
  });
});
