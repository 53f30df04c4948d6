/**
 * Runs `stop` once on the first SIGINT, SIGTERM or SIGHUP (the terminal closed), then exits with its code (0 on
 * success). A second signal while stopping exits at once with code 130. `say` announces the shutdown (default: a
 * line on stderr).
 */
export function onShutdownSignal(stop: () => Promise<void>, say: (line: string) => void = (line) => process.stderr.write(`\nskein: ${line}\n`)): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    say(`${signal} received, shutting down...`);
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`skein: shutdown failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  process.on('SIGHUP', handler);
}
