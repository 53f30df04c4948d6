/**
 * The generated workflow project of the validator benchmarks (bench/validate, bench/validate-cache): `<workflows>`
 * folders of four files each under bench/.generated/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const generated = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'bench', '.generated');

/**
 * Writes `<workflows>` folders × 4 files (under bench/.generated/`name`, by default named after the options); `pkg`:
 * an exposed package with an entry re-exporting every workflow,
 * else a project; `ts`: `.ts` sources with type annotations and `.js`-suffixed imports.
 * @returns the directory and its number of files
 */
export function generate(workflows, { ts = false, pkg = true, name } = {}) {
  const dir = join(generated, name ?? `validate-${ts ? 'ts' : 'js'}-${pkg ? 'package' : 'project'}`);
  const ext = ts ? 'ts' : 'js';
  const t = (annotation) => (ts ? annotation : '');
  rmSync(dir, { recursive: true, force: true });
  const write = (rel, text) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel.replace(/\.js$/, `.${ext}`)), text);
  };
  const entry = [];
  let files = 0;
  for (let i = 0; i < workflows; i++) {
    const name = `flow_${String(i).padStart(4, '0')}`;
    entry.push(`export { default as ${name} } from './${name}/workflow.js';`);
    write(
      `${name}/workflow.js`,
      `import { workflow, z } from '@skein/core';
import { fetchItem, storeItem } from './steps.js';
import { judgeItem } from './evaluators.js';
import { normalize, summarize } from './lib.js';

/** Generated workflow ${i}. */
export default workflow({
  name: '${name}',
  aliases: ['${name}_v1'],
  inputSchema: z.object({ id: z.string(), retries: z.number().optional() }),
  fn: async (input${t(': { id: string; retries?: number }')}) => {
    const item = await fetchItem({ id: normalize(input.id) });
    const verdict = await judgeItem(item);
    if (verdict.value < 0.5) return { stored: false, summary: summarize(item) };
    await storeItem({ item, note: \`accepted with \${verdict.confidence ?? 0}\` });
    return { stored: true, summary: summarize(item) };
  },
});
`,
    );
    write(
      `${name}/steps.js`,
      `import { step } from '@skein/core';
import { readFile } from 'node:fs/promises';

export const fetchItem = step({
  name: 'fetchItem',
  fn: async ({ id }${t(': { id: string }')}) => ({ id, body: (await readFile('/dev/null', 'utf8')) + id }),
});

export const storeItem = step({
  name: 'storeItem',
  fn: async ({ item, note }${t(': { item: { id: string }; note: string }')}) => ({ ok: true, id: item.id, note }),
});
`,
    );
    write(
      `${name}/evaluators.js`,
      `import { evaluator } from '@skein/core';

export const judgeItem = evaluator({
  name: 'judgeItem',
  fn: async (item${t(': { body: string }')}) => ({ value: item.body.length > 3 ? 1 : 0, confidence: 0.9, reasoning: 'length' }),
});
`,
    );
    write(
      `${name}/lib.js`,
      `/** Pure helpers the workflow imports (workflow code, checked for SPEC rule 12). */
export function normalize(id${t(': unknown')})${t(': string')} {
  return String(id).trim().toLowerCase();
}

export function summarize(item${t(': { id: string; body: string }')}) {
  const words = item.body.split(/\\s+/).filter(Boolean);
  return { id: item.id, words: words.length, first: words[0] ?? null };
}
`,
    );
    files += 4;
  }
  if (pkg) write('index.js', entry.join('\n') + '\n');
  const manifest = pkg
    ? {
        name: 'bench-validate-package',
        version: '1.0.0',
        private: true,
        type: 'module',
        exports: { '.': './index.js' },
        skein: { workflows: { expose: true } },
        peerDependencies: { '@skein/core': '0.1.0', zod: '^4.0.0' },
      }
    : { name: 'bench-validate-project', version: '1.0.0', private: true, type: 'module', dependencies: { '@skein/core': '0.1.0' } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  return { dir, files: files + (pkg ? 2 : 1) };
}
