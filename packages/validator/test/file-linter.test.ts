/**
 * The linter's part of each file's walk: which rules it creates for a file (by role, and not at all when the text of a
 * cleanly parsed file lacks a rule's `words`), and the context each `create()` gets (file, role, package root on first
 * use, resolution and reports through the engine).
 */
import { parseSource, walk, mergeVisitors } from '@skein/discovery';
import { describe, expect, it } from 'vitest';
import { defineRuleMeta } from '../src/create-rule.js';
import { rulesByRole, visitorsForRole, type LintHost } from '../src/engine/file-linter.js';
import type { FileRule, FileRuleContext, ValidatorDiagnostic } from '../src/types.js';

const meta = defineRuleMeta({
  id: 'steps/no-top-level-call',
  severity: 'error',
  docs: { description: 'probe', packageRule: 9 },
  messages: { topLevelCall: { message: 'call {{name}}', hint: 'hint {{name}}' } },
});

/** A rule that records each context it is created with and reports every call of `f`. */
function probe(appliesTo: FileRule['appliesTo'], words?: RegExp): FileRule & { contexts: FileRuleContext[] } {
  const contexts: FileRuleContext[] = [];
  const rule: FileRule & { contexts: FileRuleContext[] } = {
    kind: 'file',
    meta,
    appliesTo,
    contexts,
    create(context) {
      contexts.push(context);
      return {
        CallExpression: (path) =>
          void ((path.node.callee as { name?: string }).name === 'f' && context.report({ node: path.node, messageId: 'topLevelCall', data: { name: 'f' } })),
      };
    },
  };
  if (words) rule.words = words;
  return rule;
}

function host(log: string[], reports: ValidatorDiagnostic[] = []): LintHost {
  return {
    resolve: (file, specifier) => (log.push(`resolve ${file} ${specifier}`), { kind: 'unresolved' }),
    packageRootOf: (file) => (log.push(`root ${file}`), '/pkg'),
    exportKind: (file, specifier, name) => (log.push(`function ${file} ${specifier} ${name}`), 'unknown'),
    report: (d) => void reports.push(d),
  };
}

describe('visitorsForRole', () => {
  it('creates the rules of the file’s role only; a dependency gets none (discovery collects its import sites)', () => {
    const steps = probe(['steps']);
    const workflow = probe(['workflow', 'workflow-code']);
    const rules = rulesByRole([steps, workflow]);
    expect(visitorsForRole('/pkg/a.js', 'workflow', rules, host([]), undefined)).toHaveLength(1);
    expect(visitorsForRole('/pkg/b.js', 'other', rules, host([]), undefined)).toHaveLength(0);
    expect(visitorsForRole('/pkg/c.js', 'dependency', rules, host([]), undefined)).toHaveLength(0);
    expect([steps.contexts.length, workflow.contexts.length]).toEqual([0, 1]);
    expect([workflow.contexts[0]?.file, workflow.contexts[0]?.role]).toEqual(['/pkg/a.js', 'workflow']);
  });

  it('does not create a rule whose words the text of a cleanly parsed file lacks; creates it for any other file', () => {
    const rule = probe(['workflow'], /\bfetch\b/);
    const rules = rulesByRole([rule]);
    visitorsForRole('/pkg/a.js', 'workflow', rules, host([]), { text: 'g(1);', typescript: false });
    expect(rule.contexts).toHaveLength(0);
    visitorsForRole('/pkg/b.js', 'workflow', rules, host([]), { text: 'fetch(1);', typescript: false });
    visitorsForRole('/pkg/c.js', 'workflow', rules, host([]), { text: 'f\\u0065tch(1);', typescript: false });
    visitorsForRole('/pkg/d.js', 'workflow', rules, host([]), undefined);
    expect(rule.contexts.map((c) => c.file)).toEqual(['/pkg/b.js', '/pkg/c.js', '/pkg/d.js']);
  });
});

describe('the context of a rule', () => {
  it('works out the package root on first use only, resolves from the file and reports through the rule’s messages', () => {
    const log: string[] = [];
    const reports: ValidatorDiagnostic[] = [];
    const rule = probe(['steps']);
    const { ast } = parseSource('f();\n', '/pkg/s/steps.js');
    walk(ast as never, mergeVisitors(visitorsForRole('/pkg/s/steps.js', 'steps', rulesByRole([rule]), host(log, reports), undefined)));
    const context = rule.contexts[0] as FileRuleContext;
    expect(log).toEqual([]);
    expect([context.packageRoot, context.packageRoot]).toEqual(['/pkg', '/pkg']);
    expect(context.resolve('./x.js')).toEqual({ kind: 'unresolved' });
    expect(log).toEqual(['root /pkg/s/steps.js', 'resolve /pkg/s/steps.js ./x.js']);
    expect(reports).toEqual([
      {
        ruleId: 'steps/no-top-level-call',
        severity: 'error',
        packageRule: 9,
        file: '/pkg/s/steps.js',
        line: 1,
        column: 1,
        message: 'call f',
        messageId: 'topLevelCall',
        hint: 'hint f',
        data: { name: 'f' },
      },
    ]);
  });
});
