/**
 * The public documentation URL of a rule, shared by the formatters (SARIF `helpUri`, stylish's footer). Worked out
 * from the rule id alone, without loading the rules: a run of the command answered from its cache renders its
 * report without importing the analysis. No built-in rule sets its own `meta.docs.url` (a test keeps this true,
 * and that every rule's page is the one `docsPath` of @skein/discovery names).
 */
import { ruleDocsUrl } from '../package-info.js';

/**
 * The repository's web view of the rule's page `docs/rules/<id>.md`:
 * `https://github.com/<owner>/<name>/blob/main/docs/rules/<id>.md` (see `ruleDocsUrl` for where the repository
 * address comes from).
 */
export function ruleHelpUri(ruleId: string): string {
  return ruleDocsUrl(`docs/rules/${ruleId}.md`);
}
