import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepestRoot, isInside, isOwnFile } from '../src/fs.js';

const p = (...parts: string[]) => path.join(path.sep, 'work', ...parts);

describe('deepestRoot / isOwnFile: which package root a file belongs to', () => {
  const project = p('app');
  const exposed = p('app', 'node_modules', '@acme', 'flows');
  const sibling = p('app-two');
  const roots = [project, `${exposed}${path.sep}`, sibling];

  it('answers the deepest root containing the file, as isInside over every root would', () => {
    const files = [
      p('app', 'src', 'workflow.ts'),
      p('app', 'node_modules', '@acme', 'flows', 'dist', 'steps.js'),
      p('app', 'node_modules', 'lodash', 'index.js'),
      p('app-two', 'workflow.js'),
      p('app-three', 'workflow.js'),
      project,
      path.sep,
    ];
    for (const file of files) {
      const expected = roots
        .map((r) => path.resolve(r))
        .filter((r) => isInside(r, file))
        .sort((a, b) => b.length - a.length)[0];
      expect(deepestRoot(roots, file), file).toBe(expected);
    }
    expect(deepestRoot(roots, p('app', 'node_modules', '@acme', 'flows', 'workflow.js'))).toBe(exposed);
    expect(deepestRoot(roots, p('app-three', 'x.js'))).toBeUndefined();
  });

  it('a file is own when inside a root and not in a node_modules folder below its deepest root', () => {
    expect(isOwnFile(roots, p('app', 'src', 'steps.ts'))).toBe(true);
    expect(isOwnFile(roots, p('app', 'node_modules', '@acme', 'flows', 'workflow.js'))).toBe(true);
    expect(isOwnFile(roots, p('app', 'node_modules', 'lodash', 'index.js'))).toBe(false);
    expect(isOwnFile(roots, p('app', 'node_modules', '@acme', 'flows', 'node_modules', 'x', 'index.js'))).toBe(false);
    expect(isOwnFile(roots, p('app', 'src', 'node_modules_backup', 'a.js'))).toBe(true);
    expect(isOwnFile(roots, p('elsewhere', 'a.js'))).toBe(false);
  });

  it('answers files of one folder alike, from the folder answer it remembers, whatever was asked first', () => {
    const fresh = [project, exposed];
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme', 'flows', 'a.js'))).toBe(exposed);
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme', 'flows', 'b.js'))).toBe(exposed);
    expect(deepestRoot(fresh, exposed)).toBe(exposed); // a root itself, though its folder answers the project
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme', 'other.js'))).toBe(project);
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme', 'other2.js'))).toBe(project);
    expect(deepestRoot(fresh, p('nowhere', 'x.js'))).toBeUndefined();
    expect(deepestRoot(fresh, p('nowhere', 'y.js'))).toBeUndefined();
  });

  it('answers a path asked again, and a folder asked after its files, as the first time', () => {
    const fresh = [project, exposed];
    const file = p('app', 'node_modules', '@acme', 'flows', 'steps', 'x.js');
    expect([deepestRoot(fresh, file), deepestRoot(fresh, file)]).toEqual([exposed, exposed]);
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme', 'flows', 'steps'))).toBe(exposed);
    expect(deepestRoot(fresh, p('app', 'node_modules', '@acme'))).toBe(project);
    expect([deepestRoot(fresh, path.parse(project).root), deepestRoot(fresh, path.parse(project).root)]).toEqual([undefined, undefined]);
    expect(deepestRoot([path.parse(project).root], file)).toBe(path.parse(project).root);
  });

  it('a node_modules folder as the last segment is not own; a root named node_modules is', () => {
    expect(isOwnFile(roots, p('app', 'node_modules'))).toBe(false);
    expect(isOwnFile([p('x', 'node_modules')], p('x', 'node_modules', 'a.js'))).toBe(true);
    expect(isOwnFile([p('x', 'node_modules')], p('x', 'node_modules'))).toBe(true);
  });

  it('sees new roots when given a new array', () => {
    const file = p('lib', 'workflow.js');
    expect(deepestRoot([project], file)).toBeUndefined();
    expect(deepestRoot([project, p('lib')], file)).toBe(p('lib'));
  });
});
