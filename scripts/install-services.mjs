#!/usr/bin/env node
// Finds or builds (once, from the Go module proxy, into ~/.cache/skein/bin) the service binaries the system tests
// run against, and prints "<name> <path>" for each on stdout; progress goes to stderr. The same code the system
// tier's setup runs (test/support/services.ts, through @skein/dev-server's locateGoBinary), for running by hand:
//   npm run services:install                 # weed, jaeger and prometheus
//   npm run services:install -- jaeger       # only the ones named
// Exit code 0 when every binary is there, 1 when one could not be built (the message says why), 2 on an unknown name.
import { installServices, SERVICES } from '../test/support/services.ts';

const names = process.argv.slice(2);
const unknown = names.filter((n) => !Object.hasOwn(SERVICES, n));
if (unknown.length > 0) {
  console.error(`install-services: unknown service ${unknown.join(', ')} (known: ${Object.keys(SERVICES).join(', ')})`);
  process.exit(2);
}
try {
  const paths = await installServices(names.length > 0 ? names : Object.keys(SERVICES), (line) => console.error(`install-services: ${line}`));
  for (const [name, path] of Object.entries(paths)) console.log(`${name} ${path}`);
} catch (err) {
  console.error(`install-services: ${err.message}`);
  process.exit(1);
}
