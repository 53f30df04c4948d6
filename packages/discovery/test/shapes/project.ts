/**
 * Helpers of the command-shape tests: a project written to a temporary directory from inline sources, and a compact
 * text rendering of a shape tree (`a(w#x) W alt[c](then: …; else: …) loop(…) par(… | …) patched[id](…; …) partial(…) ret`).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ShapeNode } from '../../src/index.js';

/** Writes `files` (path → text) under a new temporary directory with a package.json named `name`; returns the directory. */
export function project(files: Record<string, string>, name = 'shapes-test'): string {
  const dir = mkdtempSync(join(tmpdir(), 'skein-shapes-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** A compact rendering of a shape tree. */
export function render(node: ShapeNode): string {
  switch (node.kind) {
    case 'seq':
      return node.items.map(render).join(' ');
    case 'command':
      return node.command === 'activity'
        ? `a(${node.type})`
        : node.command === 'child'
          ? `child(${node.type})`
          : node.command === 'timer'
            ? 'timer'
            : node.command === 'marker'
              ? `marker(${node.type})`
              : node.command === 'upsert'
                ? 'upsert'
                : 'can';
    case 'wait':
      return 'W';
    case 'alt':
      return `alt[${node.key}](${node.branches.map((b) => `${b.label}: ${render(b.body)}`).join('; ')})`;
    case 'loop':
      return `loop(${render(node.body)})`;
    case 'call':
      return `call(${render(node.body)})`;
    case 'parallel':
      return `par(${node.branches.map(render).join(' | ')})`;
    case 'patched':
      return `patched[${node.id}](${render(node.then)}; ${render(node.else)})`;
    case 'exit':
      return node.how === 'return' ? 'ret' : node.how;
    case 'partial':
      return `partial(${node.construct})`;
  }
}
