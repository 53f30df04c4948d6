/**
 * The `sarif` format: SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).
 * One run; the driver describes every rule of the analysis (the core's and the validator's, each from its `meta`:
 * description, docs page and package rule), whether or not it fired, and each result points at its rule by index and
 * at a file relative to `cwd` with a 1-based region.
 */
import { docsPath } from '@skein/discovery';
import { allRuleMetas } from '../rules/index.js';
import type { RuleMeta, ValidationReport } from '../types.js';
import { displayText, fileUri } from './paths.js';
import { VERSION } from '../package-info.js';
import { ruleHelpUri } from './help-uri.js';

const TOOL_NAME = 'validate-workflow-package';
const TOOL_VERSION = VERSION;

/** Options of `formatSarif`. */
export interface SarifOptions {
  /** Base directory of relative artifact URIs (default: `process.cwd()`, the repository root in CI). */
  cwd?: string;
}

/** Renders a report as a SARIF 2.1.0 log (pretty-printed JSON, ends with a newline). */
export function formatSarif(report: ValidationReport, options: SarifOptions = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const metas = new Map<string, RuleMeta>(allRuleMetas.map((m) => [m.id, m]));
  const ruleIds = [...new Set([...allRuleMetas.map((m) => m.id), ...report.diagnostics.map((d) => d.ruleId)])].sort();
  const index = new Map(ruleIds.map((id, i) => [id, i]));
  const rules = ruleIds.map((id) => {
    const meta = metas.get(id);
    const sample = report.diagnostics.find((d) => d.ruleId === id);
    const docs = docsPath(id);
    const helpUri = ruleHelpUri(id);
    const text = meta?.docs.description ?? sample?.message ?? id;
    return {
      id,
      name: id,
      shortDescription: { text },
      fullDescription: { text },
      helpUri,
      help: { text: `${text} See ${helpUri}.`, markdown: `${text}\n\nSee [${docs}](${helpUri}).` },
      defaultConfiguration: { level: (meta?.severity ?? sample?.severity) === 'warning' ? 'warning' : 'error' },
      properties: { packageRule: meta?.docs.packageRule ?? sample?.packageRule ?? null, docs },
    };
  });
  const results = report.diagnostics.map((d) => ({
    ruleId: d.ruleId,
    ruleIndex: index.get(d.ruleId) as number,
    level: d.severity === 'warning' ? 'warning' : 'error',
    message: { text: displayText(cwd, d.hint ? `${d.message} ${d.hint}` : d.message) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: fileUri(cwd, d.file) },
          region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.column) },
        },
      },
    ],
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, semanticVersion: TOOL_VERSION, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
