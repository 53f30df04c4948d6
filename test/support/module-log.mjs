// Preloaded with `node --import` (through NODE_OPTIONS) by tests that check which modules a process loads:
// appends the URL of every module the process (and each of its threads) loads, ES or CommonJS, to the file
// named by SKEIN_TEST_MODULE_LOG, one per line.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.SKEIN_TEST_MODULE_LOG;
if (log) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(log, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
