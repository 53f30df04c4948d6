#!/usr/bin/env node
// Committed bin shim: npm links it at install time (before dist/ exists), and it loads the compiled command.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('create-skein: not built yet (packages/create-skein/dist is missing); run "npm run build" first\n');
  process.exit(1);
}
await import(entry.href);
