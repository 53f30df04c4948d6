import { apiSettings } from '@skein/api';
import { SETTING_ALIASES, settingsTable, type ProcessSettings } from '@skein/settings';
import { workerSettings } from '@skein/worker/settings';
import { cliSettings } from './config.js';

/** Every process's settings schema, as the docs name the process. */
const PROCESSES: ProcessSettings[] = [
  { process: 'worker', shape: workerSettings },
  { process: 'API', shape: apiSettings },
  { process: 'CLI', shape: cliSettings },
];

/**
 * The Markdown of `docs/reference/settings.md`, generated from the settings schemas of the worker, the API and the
 * CLI (`packages/cli/test/settings-page.test.ts` keeps the file equal to it; `vitest -u` on that test rewrites it).
 */
export function settingsPage(): string {
  const aliases = Object.entries(SETTING_ALIASES)
    .map(([alias, name]) => `\`${alias}\` for \`${name}\``)
    .join(', ');
  return `# Settings

Every environment variable a Skein process reads, generated from the schemas that read them
(\`packages/worker/src/host/settings.ts\`, \`packages/api/src/config.ts\`, \`packages/cli/src/config.ts\`), so this page and
the code cannot disagree. Each process reads its settings once, at start; a malformed value stops it with one line
that names the variable, its value and what it must be (exit code 1). A blank value counts as unset.
\`skein dev\` checks the worker's and the API's settings before it starts anything.

${settingsTable(PROCESSES)}
The engine connection is read by Temporal's own environment configuration (\`@temporalio/envconfig\`), in the worker
and the API alike: \`TEMPORAL_ADDRESS\` (default \`localhost:7233\`), \`TEMPORAL_NAMESPACE\` (default \`default\`),
\`TEMPORAL_API_KEY\`, the TLS variables and TOML profiles. \`TEMPORAL_CLI_PATH\` names the \`temporal\` binary that
\`skein dev\` runs as its dev server.

Other names: ${aliases} (the API's configuration contract names the engine health check after \`/ready\`; the worker
shares the check). Either name sets the variable in every process; both set to different values stop the process. The
API does not read a bare \`LOG_LEVEL\`: \`SKEIN_LOG_LEVEL\` sets the level of every process.
`;
}

/**
 * The settings table of only the named variables (the same columns and rows as the settings page's, sorted by
 * variable), for a page that documents a few of them.
 * @throws Error naming a variable that no process's schema reads.
 */
export function settingsTableOf(names: readonly string[]): string {
  const unknown = names.filter((name) => !PROCESSES.some(({ shape }) => Object.hasOwn(shape, name)));
  if (unknown.length > 0) throw new Error(`no settings schema reads ${unknown.join(', ')}`);
  const picked = PROCESSES.map(({ process, shape }) => ({
    process,
    shape: Object.fromEntries(Object.entries(shape).filter(([name]) => names.includes(name))),
  })).filter(({ shape }) => Object.keys(shape).length > 0);
  return settingsTable(picked);
}

/**
 * A generated settings table inside a page: an opening comment naming the variables, the table, a closing comment.
 * `<!-- settings: SKEIN_A SKEIN_B -->` … `<!-- end settings -->`.
 */
const SETTINGS_BLOCK = /<!-- settings: ([A-Z0-9_ ]+?) -->\n[\s\S]*?<!-- end settings -->/g;

/**
 * `markdown` with every generated settings table (`<!-- settings: NAMES -->` … `<!-- end settings -->`) written
 * again from the schemas; text outside the blocks is unchanged. A page is up to date when this returns it unchanged
 * (`packages/cli/test/settings-page.test.ts`); `npm run generate:docs` writes the result back.
 * @throws Error when a block names a variable that no schema reads.
 */
export function withSettingsTables(markdown: string): string {
  return markdown.replace(SETTINGS_BLOCK, (_block, list: string) => {
    const names = list.trim().split(/\s+/);
    return `<!-- settings: ${names.join(' ')} -->\n${settingsTableOf(names)}<!-- end settings -->`;
  });
}
