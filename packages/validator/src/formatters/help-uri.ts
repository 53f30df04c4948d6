/** The public documentation URL of a rule, shared by the formatters (SARIF `helpUri`, stylish's footer). */
import { ruleDocsUrl } from '../package-info.js';
import { allRuleMetas } from '../rules/index.js';

const docsPaths = new Map(allRuleMetas.map((m) => [m.id, m.docs.path]));

/**
 * `https://github.com/<owner>/<name>/blob/main/docs/rules/<id>.md` for a rule id (its meta's docs page, else
 * `docs/rules/<id>.md`); see `ruleDocsUrl` for where the repository address comes from.
 */
export function ruleHelpUri(ruleId: string): string {
  return ruleDocsUrl(docsPaths.get(ruleId) ?? `docs/rules/${ruleId}.md`);
}
