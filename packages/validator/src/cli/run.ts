/**
 * The `validate-workflow-package` command, as a testable function: parses arguments with `util.parseArgs`,
 * validates, prints the chosen format and returns the exit code (0 clean, 1 errors or too many warnings,
 * 2 usage error, 3 internal error). Bad input files are findings (exit 1), never exit 2. Never prints a stack trace.
 */
import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { formatGithub } from '../formatters/github.js';
import { formatJson } from '../formatters/json.js';
import { formatStylish } from '../formatters/stylish.js';
import { cacheFileFor } from '../cache/file-cache.js';
import type { ValidationReport } from '../types.js';
import { DEFAULT_MAX_FILE_BYTES } from '../defaults.js';
import { BaselineError, ValidationInputError } from '../errors.js';
import { validateWithCache } from '../validate-cached.js';
import { EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { VERSION } from '../package-info.js';
import type { ShapeSet } from '@skein/discovery';

/** Where the command writes, and the environment it runs in. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** Colour stylish output (default false). */
  color?: boolean;
  /** Called once just before the analysis is loaded and runs (not when the cache answers); the bin sets its V8 flags here. */
  beforeAnalysis?: () => void;
}

/** Output formats of `--format`. */
export const FORMATS = ['stylish', 'json', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export { EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE } from './exit-codes.js';

/** The `--help` text. */
export const USAGE = `Usage: validate-workflow-package [dir] [options]

Checks a Skein workflow package (or a whole project) against the rules for external workflow
packages, statically: it never runs the package's code.

Arguments:
  dir                    package or project directory (default: the current directory)

Options:
  -f, --format <name>    stylish (default), json, sarif or github
  --max-warnings <n>     exit 1 when there are more than n warnings (default: no limit)
  -q, --quiet            report errors only
  --max-file-bytes <n>   skip (and report) files larger than n bytes (default ${DEFAULT_MAX_FILE_BYTES})
  --package              judge dir as a workflow package, strictly: the expose flag must be the boolean true
                         and the entry must reach at least one workflow (default: when package.json sets or
                         misspells the flag)
  --project              judge dir as a project (its own workflows and its installed exposed packages)
  --baseline <dir>       also compare each workflow's commands with a deployed build (made by skein build)
                         or another checkout of the project: versioning/* findings for auto-upgrade workflows
  --cache                keep a per-file cache of facts and findings, so that the next run parses and
                         checks only the files that changed (results are the same as without it)
  --cache-location <p>   the cache file, or a directory to hold it (default <dir>/.skein/cache/validate.json);
                         implies --cache
  --color, --no-color    force or disable colours in stylish output
  -h, --help             show this help
  -v, --version          show the version

Exit codes: 0 no errors, 1 errors (or more warnings than --max-warnings), 2 usage error, 3 internal error.
`;

class UsageError extends Error {}

interface ParsedArgs {
  dir: string;
  format: Format;
  maxWarnings: number | null;
  quiet: boolean;
  maxFileBytes: number;
  color: boolean | undefined;
  mode: 'auto' | 'package' | 'project';
  baseline: string | undefined;
  cache: boolean;
  cacheLocation: string | undefined;
  help: boolean;
  version: boolean;
}

function nonNegativeInteger(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

function parse(argv: readonly string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      allowNegative: true,
      options: {
        format: { type: 'string', short: 'f' },
        'max-warnings': { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        'max-file-bytes': { type: 'string' },
        color: { type: 'boolean' },
        package: { type: 'boolean' },
        project: { type: 'boolean' },
        baseline: { type: 'string' },
        cache: { type: 'boolean' },
        'cache-location': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`expected at most one directory, got ${positionals.length}: ${positionals.join(' ')}`);
  const format = (values.format ?? 'stylish') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`unknown --format "${values.format}"; use one of ${FORMATS.join(', ')}`);
  if (values.package && values.project) throw new UsageError('--package and --project exclude each other');
  const maxFileBytes = nonNegativeInteger('max-file-bytes', values['max-file-bytes']) ?? DEFAULT_MAX_FILE_BYTES;
  if (maxFileBytes === 0) throw new UsageError('--max-file-bytes must be at least 1');
  return {
    dir: positionals[0] ?? '.',
    format,
    maxWarnings: nonNegativeInteger('max-warnings', values['max-warnings']),
    quiet: values.quiet ?? false,
    maxFileBytes,
    color: values.color,
    mode: values.package ? 'package' : values.project ? 'project' : 'auto',
    baseline: values.baseline,
    cache: values.cache ?? values['cache-location'] !== undefined,
    cacheLocation: values['cache-location'],
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

async function render(report: ValidationReport, args: ParsedArgs, io: CliIo): Promise<string> {
  // --quiet hides warnings but still counts them (`--max-warnings` judges them), so every format keeps the count.
  const shown = args.quiet ? { ...report, diagnostics: report.diagnostics.filter((d) => d.severity === 'error') } : report;
  switch (args.format) {
    case 'json':
      return formatJson(shown);
    case 'sarif': {
      // Loaded only for SARIF: it lists every rule's metadata (the rule modules), which a cached run never loads otherwise.
      const { formatSarif } = await import('../formatters/sarif.js');
      return formatSarif(shown, { cwd: io.cwd });
    }
    case 'github':
      return formatGithub(shown, { cwd: io.cwd, quiet: args.quiet });
    default:
      return formatStylish(report, { color: args.color ?? io.color ?? false, quiet: args.quiet, cwd: io.cwd });
  }
}

/**
 * Runs the command.
 * @param argv arguments after the program name (`process.argv.slice(2)`)
 * @returns the exit code; never throws
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let args: ParsedArgs;
  try {
    args = parse(argv);
  } catch (error) {
    io.stderr(`validate-workflow-package: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (args.help) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (args.version) {
    io.stdout(`${VERSION}\n`);
    return EXIT_OK;
  }
  try {
    const dir = path.resolve(io.cwd, args.dir);
    let baseline: ShapeSet | undefined;
    if (args.baseline !== undefined) {
      // Loaded only when asked for: it reads (or derives) command shapes through the analysis core.
      const { loadBaseline, projectNameOf } = await import('../versioning/baseline.js');
      const loaded = await loadBaseline(path.resolve(io.cwd, args.baseline), projectNameOf(dir));
      if (loaded.skipped)
        io.stderr(`validate-workflow-package: warning: ${loaded.skipped}
`);
      baseline = loaded.shapes;
    }
    const options = { maxFileBytes: args.maxFileBytes, mode: args.mode, ...(baseline ? { baseline } : {}) };
    // The analysis is imported only when it runs: a run answered from the cache never loads the parser or the rules.
    const report = args.cache
      ? await validateWithCache(dir, {
          ...options,
          cache: {
            file: cacheFileFor(dir, args.cacheLocation, io.cwd),
            onWarning: (message) =>
              io.stderr(`validate-workflow-package: warning: ${message}
`),
          },
          beforeAnalysis: io.beforeAnalysis,
        })
      : (io.beforeAnalysis?.(), await (await import('../validate.js')).validate(dir, options));
    io.stdout(await render(report, args, io));
    for (const name of report.pinnedChanges ?? []) {
      io.stderr(`validate-workflow-package: note: pinned workflow "${name}" changed its commands; its runs finish on the build they started on
`);
    }
    if (report.errorCount > 0) return EXIT_FINDINGS;
    if (args.maxWarnings !== null && report.warningCount > args.maxWarnings) {
      io.stderr(`validate-workflow-package: ${report.warningCount} warnings, more than --max-warnings ${args.maxWarnings}\n`);
      return EXIT_FINDINGS;
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ValidationInputError || error instanceof BaselineError) {
      io.stderr(`validate-workflow-package: ${error.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr(`validate-workflow-package: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_INTERNAL;
  }
}
