/**
 * `workflow/declared-schedules`: the schedules a workflow declares (`workflow({ schedules: [...] })`) are read
 * statically and checked as the engine will need them: each is an object literal with a static `id` (unique, letters,
 * digits, `_`, `-`), static `cron` entries (5 fields, a predefined form or `@every <duration>`) and/or a static
 * `every` of at least 1s, and a known IANA `timezone`. The same checks (`scheduleTimesProblems` of @skein/settings)
 * run in the API, so a schedule the validator accepts is one the API would accept. The `input` is checked against
 * the workflow's input schema when the worker loads the workflow (the schema is code, not read statically).
 */
import type { Node, ObjectExpression, ObjectProperty } from '@babel/types';
// The schedule checks alone (their subpath): the package's index also loads its settings and zod, about 0.1 CPU-s that
// every validation would pay to check a few schedules.
import { scheduleTimesProblems } from '@skein/settings/schedule-spec';
import { createRule } from '../../create-rule.js';
import { coreBindings, definitionKind, type CoreBindings } from '../util/ast.js';

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The value of a string literal or a template literal without expressions; undefined for anything else. */
function literalString(node: Node | null | undefined): string | undefined {
  if (node?.type === 'StringLiteral') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function keyOf(p: ObjectProperty): string | undefined {
  if (!p.computed && p.key.type === 'Identifier') return p.key.name;
  return literalString(p.key);
}

function propertyOf(object: ObjectExpression, key: string): ObjectProperty | undefined {
  return object.properties.find((p): p is ObjectProperty => p.type === 'ObjectProperty' && keyOf(p) === key);
}

export const rule = createRule({
  meta: {
    id: 'workflow/declared-schedules',
    severity: 'error',
    docs: { description: "A workflow's declared schedules are static and valid: unique ids, cron entries or an interval of at least 1s, a known time zone." },
    messages: {
      notStatic: {
        message: 'The {{what}} of workflow schedules must be written literally, so that it can be read without running the code.',
        hint: 'Write `schedules: [{ id: "nightly", cron: "0 2 * * *", input: { ... } }]` with literal strings.',
      },
      invalidId: {
        message: 'Schedule id `{{id}}` is not 1–100 letters, digits, `_` or `-`.',
        hint: 'The engine id of the schedule is `<catalog>:<workflow>:<id>`; keep the id short and plain, e.g. `nightly`.',
      },
      duplicateId: {
        message: 'Schedule id `{{id}}` is declared twice in this workflow.',
        hint: 'Give each schedule of a workflow its own id.',
      },
      invalidTimes: {
        message: 'Schedule `{{id}}`: {{problem}}.',
        hint: 'Cron entries have 5 fields (`0 9 * * MON-FRI`) or are `@daily`, `@hourly`, `@weekly`, `@monthly`, `@yearly` or `@every 90s`; `every` is a duration of at least 1s; `timezone` is an IANA name such as `Europe/Paris`.',
      },
    },
  },
  appliesTo: ['workflow'],
  words: /\bschedules\b/,
  create(context) {
    let bindings: CoreBindings | undefined;
    return {
      Program(path) {
        bindings = coreBindings(path.node);
      },
      CallExpression(path) {
        if (!bindings || definitionKind(path.node, bindings, path) !== 'workflow') return;
        const config = path.node.arguments[0];
        if (config?.type !== 'ObjectExpression') return;
        const prop = propertyOf(config, 'schedules');
        if (!prop) return;
        if (prop.value.type !== 'ArrayExpression') return context.report({ node: prop.value, messageId: 'notStatic', data: { what: 'list' } });
        const seen = new Set<string>();
        for (const element of prop.value.elements) {
          if (element?.type !== 'ObjectExpression') {
            context.report({ node: element ?? prop.value, messageId: 'notStatic', data: { what: 'schedule entry' } });
            continue;
          }
          const idProp = propertyOf(element, 'id');
          const id = literalString(idProp?.value);
          if (id === undefined) {
            context.report({ node: idProp?.value ?? element, messageId: 'notStatic', data: { what: '`id`' } });
            continue;
          }
          if (!ID.test(id)) context.report({ node: idProp!.value, messageId: 'invalidId', data: { id } });
          if (seen.has(id)) context.report({ node: idProp!.value, messageId: 'duplicateId', data: { id } });
          seen.add(id);

          const cronProp = propertyOf(element, 'cron');
          const cronNodes = cronProp ? (cronProp.value.type === 'ArrayExpression' ? cronProp.value.elements : [cronProp.value]) : [];
          const cron = cronNodes.map((n) => literalString(n));
          const everyProp = propertyOf(element, 'every');
          const every = everyProp ? literalString(everyProp.value) : undefined;
          const tzProp = propertyOf(element, 'timezone');
          const timezone = tzProp ? literalString(tzProp.value) : undefined;
          const notStatic = (node: Node, what: string) => context.report({ node, messageId: 'notStatic', data: { what } });
          if (cron.some((c) => c === undefined)) notStatic(cronProp!.value, '`cron`');
          if (everyProp && every === undefined) notStatic(everyProp.value, '`every`');
          if (tzProp && timezone === undefined) notStatic(tzProp.value, '`timezone`');
          if (cron.some((c) => c === undefined) || (everyProp && every === undefined) || (tzProp && timezone === undefined)) continue;

          for (const problem of scheduleTimesProblems({ cron: cronProp ? (cron as string[]) : undefined, every: everyProp ? every : undefined, timezone })) {
            const at = problem.field.startsWith('cron.')
              ? (cronNodes[Number(problem.field.slice(5))] ?? cronProp!.value)
              : problem.field === 'every'
                ? everyProp!.value
                : problem.field === 'timezone'
                  ? tzProp!.value
                  : element;
            context.report({ node: at, messageId: 'invalidTimes', data: { id, problem: problem.message } });
          }
        }
      },
    };
  },
});
