/**
 * Messages a worker child process (`skein worker` started by `skein dev`) sends its parent over the IPC
 * channel. The parent never sends any: it stops the child with SIGTERM.
 */
export type WorkerMessage =
  | {
      type: 'ready';
      catalog: string;
      workflows: string[];
      /** Folders to watch: the project root and each exposed package's root (real paths). */
      roots: string[];
      startup: { totalMs: number; bundleMs: number; bundleCache: 'hit' | 'miss' | 'off' | 'build' };
    }
  | { type: 'failed'; message: string };
