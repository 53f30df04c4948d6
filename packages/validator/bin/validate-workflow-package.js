#!/usr/bin/env node
// Committed bin shim: npm links it at install time (before dist/ exists), and it loads the compiled validator CLI.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('validate-workflow-package: not built yet (packages/validator/dist is missing); run "npm run build" first\n');
  process.exit(1);
}
await import(entry.href);
