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
      /** The worker's Prometheus scrape URL, or null when it serves none. */
      metricsUrl: string | null;
    }
  | { type: 'failed'; message: string };
