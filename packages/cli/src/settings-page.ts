import { apiSettings } from '@skein/api';
import { RENAMED_SETTINGS, settingsTable } from '@skein/runtime';
import { workerSettings } from '@skein/worker/settings';
import { cliSettings } from './config.js';

/**
 * The Markdown of `docs/reference/settings.md`, generated from the settings schemas of the worker, the API and the
 * CLI (`packages/cli/test/settings-page.test.ts` keeps the file equal to it; `vitest -u` on that test rewrites it).
 */
export function settingsPage(): string {
  const renamed = Object.entries(RENAMED_SETTINGS)
    .map(([old, now]) => `\`${old}\` → \`${now}\``)
    .join(', ');
  return `# Settings

Every environment variable a Skein process reads, generated from the schemas that read them
(\`packages/worker/src/settings.ts\`, \`packages/api/src/config.ts\`, \`packages/cli/src/config.ts\`), so this page and
the code cannot disagree. Each process reads its settings once, at start; a malformed value stops it with one line
that names the variable, its value and what it must be (exit code 1). A blank value counts as unset.
\`skein dev\` checks the worker's and the API's settings before it starts anything.

${settingsTable([
  { process: 'worker', shape: workerSettings },
  { process: 'API', shape: apiSettings },
  { process: 'CLI', shape: cliSettings },
])}
The engine connection is read by Temporal's own environment configuration (\`@temporalio/envconfig\`), in the worker
and the API alike: \`TEMPORAL_ADDRESS\` (default \`localhost:7233\`), \`TEMPORAL_NAMESPACE\` (default \`default\`),
\`TEMPORAL_API_KEY\`, the TLS variables and TOML profiles. \`TEMPORAL_CLI_PATH\` names the \`temporal\` binary that
\`skein dev\` runs as its dev server.

Renamed variables: ${renamed}. A process that finds an old name set refuses to start and names the new one. The API
no longer reads a bare \`LOG_LEVEL\`: \`SKEIN_LOG_LEVEL\` sets the level of every process.
`;
}
