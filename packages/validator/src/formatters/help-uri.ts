/** The public documentation URL of a rule, shared by the formatters (SARIF `helpUri`, stylish's footer). */
import { docsPath } from '@skein/discovery';
import { ruleDocsUrl } from '../package-info.js';
import { allRuleMetas } from '../rules/index.js';

const urls = new Map(allRuleMetas.flatMap((m) => (m.docs.url ? [[m.id, m.docs.url] as const] : [])));

/**
 * A rule's `meta.docs.url` when it sets one, else the repository's web view of its page `docs/rules/<id>.md`:
 * `https://github.com/<owner>/<name>/blob/main/docs/rules/<id>.md` (see `ruleDocsUrl` for where the repository
 * address comes from).
 */
export function ruleHelpUri(ruleId: string): string {
  return urls.get(ruleId) ?? ruleDocsUrl(docsPath(ruleId));
}
