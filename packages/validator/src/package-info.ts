/**
 * What the validator says about itself, read from its own package.json (never typed into source): its version,
 * and the public documentation URL of each rule, derived from the package's `repository` field.
 */
import { readFileSync } from 'node:fs';

interface OwnPackageJson {
  version: string;
  repository?: { url?: string } | string;
}

const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as OwnPackageJson;

/** The version of `@skein/validator` (`validate-workflow-package --version`, SARIF's `tool.driver.version`). */
export const VERSION = own.version;

/** The repository's web address (`https://github.com/<owner>/<name>`), from package.json's `repository.url`. */
const repositoryUrl = (typeof own.repository === 'string' ? own.repository : (own.repository?.url ?? '')).replace(/^git\+/, '').replace(/\.git$/, '');

/**
 * The public documentation page of a rule: the repository's web view of `docsPath` on its `main` branch, e.g.
 * `https://github.com/skein-dev/skein/blob/main/docs/rules/entry/not-found.md`.
 * @param docsPath the page's path in the repository (a rule meta's `docs.path`, `docs/rules/<id>.md`).
 */
export function ruleDocsUrl(docsPath: string): string {
  return `${repositoryUrl}/blob/main/${docsPath}`;
}
