/**
 * `packaging/seed-settings-key`: a package.json that still holds the seed system's settings key, `"outputai"`
 * (`hookFiles`, `workflows.expose`), where Skein reads `"skein"`. Skein never reads the old key, so without this
 * finding its hook files would silently not load and its workflows would silently not be exposed
 * (docs/migrating.md). Reported at the key, once per package.
 */
import { jsonKeyPosition } from '@skein/discovery';
import { PACKAGE_JSON_KEY } from '@skein/names';
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
        message: '{{package}} sets "outputai" ({{settings}}), the seed system\'s settings key; Skein reads "{{key}}" only, so {{effect}}.',
        hint: 'Rename the key to "{{key}}"{{merge}} (docs/migrating.md).',
      },
    },
  },
  check(context) {
    for (const pkg of context.packages) {
      const seed = pkg.packageJson[SEED_SETTINGS_KEY];
      if (seed === undefined) continue;
      const settings = seed !== null && typeof seed === 'object' && !Array.isArray(seed) ? (seed as Record<string, unknown>) : {};
      const exposes = (settings.workflows as { expose?: unknown } | undefined)?.expose === true;
      // A worker loads the hook files of the project it serves only (not of the packages it discovers).
      const isRoot = pkg.root === context.manifest.root;
      const effects = [
        ...(Array.isArray(settings.hookFiles) && settings.hookFiles.length > 0 && isRoot ? ['its hook files are not loaded'] : []),
        ...(exposes ? ['its workflows are not exposed'] : []),
      ];
      const keys = Object.keys(settings);
      context.report({
        file: pkg.packageJsonPath,
        loc: jsonKeyPosition(pkg.packageJsonText, SEED_SETTINGS_KEY),
        messageId: 'seedKey',
        data: {
          package: typeof pkg.packageJson.name === 'string' ? pkg.packageJson.name : 'The package',
          key: PACKAGE_JSON_KEY,
          settings: keys.length ? keys.join(', ') : 'no settings',
          effect: effects.length ? effects.join(' and ') : 'nothing in it takes effect',
          merge: pkg.packageJson[PACKAGE_JSON_KEY] === undefined ? '' : `, merging its settings into the "${PACKAGE_JSON_KEY}" key already there`,
        },
      });
    }
  },
});
