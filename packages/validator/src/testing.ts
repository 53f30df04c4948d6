/**
 * `@skein/validator/testing`: the rule tester for rule authors (typescript-eslint's RuleTester, without a test
 * framework of its own: call it from any test). It runs one file rule over a code string in the engine's single
 * traversal, with imports resolved from a table instead of the disk. A case that does not parse
 * fails the test (unless it says it expects a parse error), so a "valid" case can never pass by being unparsable.
 * Each case runs twice, with every node visited and as the store walks a cleanly parsed file (visitors whose words
 * the text lacks left out, functions skipped when every visitor left works at module level), and fails unless both
 * report the same findings: every rule test is also a test of what the walk may skip.
 */
import { isTypeScriptFile, mergeVisitors, parseSource, RULES, walk, type SourceFacts } from '@skein/discovery';
import { rulesByRole, visitorsForRole } from './engine/file-linter.js';
import type { CodeRole, ExportKind, FileRole, FileRule, ResolvedImport, ValidatorDiagnostic } from './types.js';

/** How `lint` runs a case: the file's role and path, and what its imports resolve to. */
export interface LintOptions {
  /** The role the file is linted as. Default `workflow`. */
  role?: CodeRole;
  /** The file's absolute path (its extension decides JavaScript or TypeScript). Default `/pkg/hello/workflow.js`. */
  file?: string;
  /** specifier → role of the file it resolves to (null: a plain module); absent specifiers are unresolved. */
  imports?: Record<string, FileRole | null>;
  /** specifier → the names the module it resolves to exports as functions it declares (`exportKind` `function`). Default none. */
  functions?: Record<string, string[]>;
  /** specifier → name → what the module exports under it (`exportKind`); other names are `unknown` unless in `functions`. */
  exports?: Record<string, Record<string, ExportKind>>;
  /** The case is about unparsable code: a `parse/syntax-error` finding is expected instead of failing the test. */
  expectParseError?: boolean;
}

/**
 * The findings `rule` reports for `code`.
 * @throws Error when the code does not parse and `expectParseError` is not set, or when it is set and the code parses
 */
export function lint<MessageIds extends string>(rule: FileRule<MessageIds>, code: string, options: LintOptions = {}): ValidatorDiagnostic[] {
  const out: ValidatorDiagnostic[] = [];
  const imports = options.imports ?? {};
  const resolve = (specifier: string): ResolvedImport =>
    specifier in imports ? { kind: 'file', path: `/pkg/${specifier}`, role: imports[specifier] ?? null, inPackage: true } : { kind: 'unresolved' };
  const file = options.file ?? '/pkg/hello/workflow.js';
  const parseError = (line: number, column: number, message: string): ValidatorDiagnostic => ({
    ruleId: 'parse/syntax-error',
    severity: RULES['parse/syntax-error'].severity,
    file,
    line,
    column,
    message,
  });
  const { ast, errors } = parseSource(code, file);
  const parseErrors = errors.map((e) => parseError(e.position.line, e.position.column, e.message));
  if (ast && parseErrors.length === 0) {
    const run = (source: SourceFacts | undefined, into: ValidatorDiagnostic[]) =>
      walk(
        ast,
        mergeVisitors(
          visitorsForRole(
            file,
            options.role ?? 'workflow',
            rulesByRole([rule]),
            {
              resolve: (_file, specifier) => resolve(specifier),
              packageRootOf: () => '/pkg',
              exportKind: (_file, specifier, name) =>
                options.exports?.[specifier]?.[name] ?? (options.functions?.[specifier]?.includes(name) ? 'function' : 'unknown'),
              report: (d) => into.push(d),
            },
            source,
          ),
          source,
        ),
      );
    try {
      run(undefined, out);
      const skipping: ValidatorDiagnostic[] = [];
      run({ text: code, typescript: isTypeScriptFile(file) }, skipping);
      if (JSON.stringify(skipping) !== JSON.stringify(out)) {
        throw new Error(`the walk that skips reports ${JSON.stringify(skipping)}, the full walk ${JSON.stringify(out)}`);
      }
    } catch (error) {
      if ((error as Error).message.startsWith('the walk that skips')) throw error;
      parseErrors.push(parseError(1, 1, (error as Error).message)); // as the store reports a tree too deep to walk
    }
  }
  out.push(...parseErrors);
  if (options.expectParseError !== true && parseErrors.length > 0) {
    throw new Error(`the case does not parse as ${file}: ${parseErrors.map((d) => `${d.line}:${d.column} ${d.message}`).join('; ')}`);
  }
  if (options.expectParseError === true && parseErrors.length === 0) throw new Error('the case was expected not to parse, but it parses');
  return out;
}

/** `messageId@line:column` of each finding of `rule`, in report order. */
export function positions<MessageIds extends string>(rule: FileRule<MessageIds>, code: string, options?: LintOptions): string[] {
  return lint(rule, code, options)
    .filter((d) => d.ruleId === rule.meta.id)
    .map((d) => `${d.messageId}@${d.line}:${d.column}`);
}
