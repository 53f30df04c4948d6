/**
 * `packaging/seed-settings-key`: a package.json that still holds the seed system's settings key, `"outputai"`
 * (`hookFiles`, `workflows.expose`), where Skein reads `"skein"`. Skein never reads the old key, so without this
 * finding its hook files would silently not load and its workflows would silently not be exposed
 * (docs/migrating.md). Reported at the key, once per package.
 */
import { jsonKeyPosition } from '@skein/discovery';
import { createRule } from '../../create-rule.js';

/** The seed system's package.json settings key. */
export const SEED_SETTINGS_KEY = 'outputai';

export const rule = createRule({
  meta: {
    id: 'packaging/seed-settings-key',
    severity: 'warning',
    docs: { description: 'package.json holds no `"outputai"` settings: Skein reads its settings from `"skein"` only.' },
    messages: {
      seedKey: {
        message: '{{package}} sets "outputai" ({{settings}}), the seed system\'s settings key; Skein reads "skein" only, so {{effect}}.',
        hint: 'Rename the key to "skein"{{merge}} (docs/migrating.md).',
      },
    },
  },
  check(context) {
    for (const pkg of context.packages) {
      const seed = pkg.packageJson[SEED_SETTINGS_KEY];
      if (seed === undefined) continue;
      const keys = seed !== null && typeof seed === 'object' && !Array.isArray(seed) ? Object.keys(seed) : [];
      const effects = [
        ...(keys.includes('hookFiles') ? ['its hook files are not loaded'] : []),
        ...(keys.includes('workflows') ? ['its workflows are not exposed'] : []),
      ];
      context.report({
        file: pkg.packageJsonPath,
        loc: jsonKeyPosition(pkg.packageJsonText, SEED_SETTINGS_KEY),
        messageId: 'seedKey',
        data: {
          package: typeof pkg.packageJson.name === 'string' ? pkg.packageJson.name : 'The package',
          settings: keys.length ? keys.join(', ') : 'no settings',
          effect: effects.length ? effects.join(' and ') : 'nothing in it takes effect',
          merge: pkg.packageJson.skein === undefined ? '' : ', merging its settings into the "skein" key already there',
        },
      });
    }
  },
});
