/**
 * Entry of the bundling process (see `startWebpackProcess`): loads webpack at once, then receives `{ run }` over IPC,
 * runs webpack once, sends the bundle and the files it read (or the error) and exits. A run with deferred stubs gets
 * its stubs file later, as `{ stubsFile }`. It never writes webpack's persistent cache (the compiler is left unclosed
 * and discarded with the process). It also exits when its parent goes away.
 */
import { enableTypeScriptSources } from '../host/typescript/resolve-hook.js';
import { deferStubs } from './stub-spec.js';
import { runWebpack } from './webpack.js';
import type { WebpackProcessMessage, WebpackProcessResult } from './webpack-process.js';

enableTypeScriptSources();
process.once('disconnect', () => process.exit(1));
let provideStubs: ((stubsFile: string) => void) | undefined;
process.on('message', (message: WebpackProcessMessage) => {
  if ('stubsFile' in message) {
    provideStubs?.(message.stubsFile);
    return;
  }
  if (message.run.loaderOptions.stubsFile === '') provideStubs = deferStubs();
  void (async () => {
    let result: WebpackProcessResult;
    try {
      const built = await runWebpack(message.run);
      result = { code: built.code, inputs: built.inputs, modules: built.modules };
    } catch (err) {
      const e = err as Error;
      result = { error: { message: e.message, ...(e.stack ? { stack: e.stack } : {}) } };
    }
    process.send!(result, () => process.exit(0));
  })();
});
