import { dirname } from 'node:path';
import type { DirEntry, FileStat, FileSystem } from '../src/index.js';

function fail(code: string, path: string): never {
  throw Object.assign(new Error(`${code}: ${path}`), { code });
}

/** An in-memory `FileSystem` over absolute paths; paths in `unreadable` reject with EACCES on read. */
export function memoryFileSystem(files: Record<string, string>, unreadable: string[] = []): FileSystem {
  const dirs = new Set<string>(['/']);
  for (const file of Object.keys(files)) for (let d = dirname(file); !dirs.has(d); d = dirname(d)) dirs.add(d);
  const blocked = new Set(unreadable);
  return {
    readFile: (path) => (blocked.has(path) ? fail('EACCES', path) : path in files ? files[path]! : fail('ENOENT', path)),
    stat: (path): FileStat =>
      path in files ? { kind: 'file', size: Buffer.byteLength(files[path]!) } : dirs.has(path) ? { kind: 'directory', size: 0 } : fail('ENOENT', path),
    realpath: (path) => (path in files || dirs.has(path) ? path : fail('ENOENT', path)),
    readdir: (path): DirEntry[] => {
      if (!dirs.has(path)) return fail('ENOENT', path);
      if (blocked.has(path)) return fail('EACCES', path);
      const prefix = path === '/' ? '/' : `${path}/`;
      const names = new Map<string, DirEntry['kind']>();
      for (const f of Object.keys(files)) if (f.startsWith(prefix) && !f.slice(prefix.length).includes('/')) names.set(f.slice(prefix.length), 'file');
      for (const d of dirs) if (d !== path && d.startsWith(prefix) && !d.slice(prefix.length).includes('/')) names.set(d.slice(prefix.length), 'directory');
      return [...names].map(([name, kind]) => ({ name, kind }));
    },
  };
}
