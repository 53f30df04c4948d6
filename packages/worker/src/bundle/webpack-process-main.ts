/**
 * Entry of the bundling process (see `runWebpackIsolated`): receives `{ run }` over IPC, runs webpack once, sends
 * the bundle and the files it read (or the error) and exits. It never writes webpack's persistent cache (the
 * compiler is left unclosed and discarded with the process). It also exits when its parent goes away.
 */
import { enableTypeScriptSources } from '../host/typescript/resolve-hook.js';
import { runWebpack, type WebpackRun } from './webpack.js';
import type { WebpackProcessResult } from './webpack-process.js';

enableTypeScriptSources();
process.once('disconnect', () => process.exit(1));
process.once('message', (message) => {
  void (async () => {
    let result: WebpackProcessResult;
    try {
      const built = await runWebpack((message as { run: WebpackRun }).run);
      result = { code: built.code, inputs: built.inputs };
    } catch (err) {
      const e = err as Error;
      result = { error: { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
    }
    process.send!(result, () => process.exit(0));
  })();
});
