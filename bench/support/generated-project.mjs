import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * Writes the generated benchmark project at `outDir` (replacing it): a root project with one workflow and a
 * shared step, and `packages` exposed packages under node_modules/@bench, each with `workflows` workflows
 * (steps, evaluators, a barrel) and its own shared step and evaluator. 200 x 5 = the 1,000-workflow project
 * of the discovery and worker-startup benchmarks.
 */
export function generateProject(outDir, { packages: PACKAGES = 200, workflows: WORKFLOWS = 5 } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  write(join(outDir, 'package.json'), JSON.stringify({ name: 'bench-project', version: '1.0.0', type: 'module', private: true }));
  write(
    join(outDir, 'local', 'workflow.js'),
    `import { workflow } from '@skein/core';\nimport { wf_0_0 } from '@bench/pkg-0';\nexport default workflow({ name: 'local_main', fn: async (i) => wf_0_0(i) });\n`,
  );
  write(
    join(outDir, 'shared', 'steps', 'audit.js'),
    `import { step } from '@skein/core';\nexport const audit = step({ name: 'audit', fn: async (x) => x });\n`,
  );
  for (let p = 0; p < PACKAGES; p++) {
    const root = join(outDir, 'node_modules', '@bench', `pkg-${p}`);
    write(
      join(root, 'package.json'),
      JSON.stringify(
        {
          name: `@bench/pkg-${p}`,
          version: '1.0.0',
          type: 'module',
          exports: { '.': { 'skein-workflow-bundle': './index.js', import: './index.js' } },
          skein: { workflows: { expose: true } },
          peerDependencies: { '@skein/core': '0.1.0', zod: '^4.6.7' },
        },
        null,
        2,
      ),
    );
    const index = [];
    for (let w = 0; w < WORKFLOWS; w++) {
      const name = `wf_${p}_${w}`;
      const dir = join(root, 'workflows', name);
      // Alternate the two supported forms: a direct re-export, and export * through a barrel.
      if (w % 2 === 0) index.push(`export { default as ${name} } from './workflows/${name}/workflow.js';`);
      else index.push(`export * from './workflows/${name}/index.js';`);
      write(join(dir, 'index.js'), `export { default as ${name} } from './workflow.js';\n`);
      write(
        join(dir, 'workflow.js'),
        `import { workflow, z } from '@skein/core';\nimport { fetch_${w}, parse_${w} } from './steps.js';\nimport { judge_${w} } from './evaluators/judge.js';\nimport { quality_${w} } from './evaluators/quality.js';\n\nconst NAME = '${name}';\n\nexport default workflow({\n  name: NAME,\n  aliases: ['${name}_alias'],\n  description: 'Benchmark workflow ${name}.',\n  inputSchema: z.object({ url: z.string() }),\n  outputSchema: z.object({ ok: z.boolean() }),\n  fn: async (input) => {\n    const page = await fetch_${w}(input.url);\n    const parsed = await parse_${w}(page);\n    const verdict = await judge_${w}(parsed);\n    const q = await quality_${w}(parsed);\n    return { ok: verdict.value && q.value > 0.5 };\n  },\n});\n`,
      );
      write(
        join(dir, 'steps.js'),
        `import { step, z } from '@skein/core';\n\nexport const fetch_${w} = step({\n  name: 'fetch_${w}',\n  inputSchema: z.string(),\n  fn: async (url) => {\n    const res = await fetch(url);\n    return res.text();\n  },\n});\n\nexport const parse_${w} = step({\n  name: 'parse_${w}',\n  fn: async (text) => ({ length: text.length, words: text.split(/\\s+/).length }),\n});\n`,
      );
      write(
        join(dir, 'evaluators', 'judge.js'),
        `import { evaluator } from '@skein/core';\n\nexport const judge_${w} = evaluator({\n  name: 'judge_${w}',\n  fn: async (parsed) => ({ value: parsed.words > 10, confidence: 0.9, reasoning: 'word count' }),\n});\n`,
      );
      write(
        join(dir, 'evaluators', 'quality.js'),
        `import { evaluator } from '@skein/core';\n\nexport const quality_${w} = evaluator({\n  name: 'quality_${w}',\n  fn: async (parsed) => ({ value: Math.min(1, parsed.length / 1000) }),\n});\n`,
      );
    }
    write(join(root, 'index.js'), `${index.join('\n')}\n`);
    write(
      join(root, 'shared', 'steps', 'notify.js'),
      `import { step } from '@skein/core';\n\nexport const notify_p${p} = step({ name: 'notify_p${p}', fn: async (msg) => msg });\n`,
    );
    write(
      join(root, 'shared', 'evaluators', 'safety.js'),
      `import { evaluator } from '@skein/core';\n\nexport const safety_p${p} = evaluator({ name: 'safety_p${p}', fn: async () => ({ value: true }) });\n`,
    );
  }
}
