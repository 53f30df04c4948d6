/**
 * Child process of `bounded.ts`: runs `discover()` or `validate()` from the sources (TypeScript, loaded with Node's
 * type transform and the `@skein/source` export condition) on one root and prints the result as JSON.
 * Usage: node --experimental-transform-types --conditions=@skein/source child.mjs <discover|validate> <root> <options-json>
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The packages under test, always from this checkout (a copy, e.g. a mutation-testing sandbox, tests its own sources). */
const OWN = {
  '@skein/discovery': new URL('../../../discovery/src/index.ts', import.meta.url).href,
  '@skein/validator': new URL('../../src/index.ts', import.meta.url).href,
};

// TypeScript sources import each other with `.js` specifiers (moduleResolution nodenext): map them to the `.ts` file.
registerHooks({
  resolve(specifier, context, next) {
    if (specifier in OWN) return next(OWN[specifier], context);
    try {
      return next(specifier, context);
    } catch (error) {
      if (!specifier.endsWith('.js') || !context.parentURL?.endsWith('.ts')) throw error;
      const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
      if (!existsSync(fileURLToPath(url))) throw error;
      return next(url.href, context);
    }
  },
});

const [mode, root, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? '{}');
const result =
  mode === 'discover' ? await (await import('@skein/discovery')).discover(root, options) : await (await import('@skein/validator')).validate(root, options);
process.stdout.write(JSON.stringify(result));
