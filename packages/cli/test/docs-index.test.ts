import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documentation's front doors: README.md stays short and maps docs/ by audience, docs/README.md lists every page
 * of docs/, and no relative link of the repository's own pages leads nowhere.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
const docsPages = globSync('docs/**/*.md', { cwd: repo }).sort();
const pages = ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...docsPages];

/** The relative link targets of a Markdown page (not URLs, not in-page anchors, not in code), without their anchors. */
function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURIComponent(target.split('#')[0]!));
}

describe('the documentation', () => {
  it('README is a front door of at most 150 lines that links docs/README.md, testing and the license', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    for (const target of ['docs/README.md', 'docs/testing.md', 'LICENSE', 'CONTRIBUTING.md', 'bench/README.md'])
      expect(relativeLinks(readme)).toContain(target);
    for (const command of ['npm create skein', 'npm run dev', 'npm test', 'npm run test:quick', 'npm run test:unit']) expect(readme).toContain(command);
  });

  it('docs/README.md links every page under docs/', () => {
    const index = new Set(relativeLinks(read('docs/README.md')).map((target) => path.posix.join('docs', target)));
    expect(docsPages.filter((page) => page !== 'docs/README.md' && !index.has(page))).toEqual([]);
  });

  it('no relative link of a page leads to a missing file', () => {
    const missing = pages.flatMap((page) =>
      relativeLinks(read(page))
        .filter((target) => !existsSync(path.join(repo, path.dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(missing).toEqual([]);
  });
});
