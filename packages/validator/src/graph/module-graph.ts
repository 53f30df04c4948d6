/**
 * The import graph of workflow code (package rule 12), built during the single traversal of each file:
 * which specifiers a file imports, where, and what they resolve to.
 */
import type { CodeRole, ResolvedImport } from './code-facts.js';

/** One import, re-export, `require()` or dynamic `import()` with a static specifier. */
export interface ImportEdge {
  specifier: string;
  line: number;
  column: number;
  resolved: ResolvedImport;
}

/** A file in the graph. `own` files belong to a validated package; `dependency` files to what it imports. */
export interface ModuleNode {
  file: string;
  role: CodeRole | 'dependency';
  own: boolean;
  edges: ImportEdge[];
}

/** Files reached from workflow files, keyed by real path. */
export class ModuleGraph {
  readonly nodes = new Map<string, ModuleNode>();
  /** The workflow files the graph starts from, sorted. */
  readonly entries: string[] = [];

  /** Adds or replaces a node. */
  set(node: ModuleNode): void {
    this.nodes.set(node.file, node);
  }

  get(file: string): ModuleNode | undefined {
    return this.nodes.get(file);
  }
}
