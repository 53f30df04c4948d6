#!/usr/bin/env node
// Committed bin shim: npm links it at install time (before dist/ exists), and it loads the compiled CLI.
import { existsSync, readFileSync } from 'node:fs';
import semver from 'semver';

// Skein runs on the Node.js versions of this package's `engines.node`. On another one (Node 20, say) the CLI would
// fail later on an API that version lacks (`module.registerHooks`), with a stack trace: say it in one line instead.
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
if (!semver.satisfies(process.versions.node, engines.node)) {
  process.stderr.write(
    `skein: needs Node.js ${engines.node}, and this is ${process.version} (${process.execPath}); install Node 24 LTS and run it again\n`,
  );
  process.exit(2);
}
const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('skein: the CLI is not built yet (packages/cli/dist is missing); run "npm run build" first\n');
  process.exit(1);
}
// A long-running worker on Linux starts again at once with glibc's malloc arenas bounded (src/malloc-arenas.ts).
const { reexecWorkerWithMallocArenas } = await import(new URL('../dist/malloc-arenas.js', import.meta.url).href);
reexecWorkerWithMallocArenas();
await import(entry.href);
