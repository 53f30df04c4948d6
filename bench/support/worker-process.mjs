import { spawn } from 'node:child_process';

/**
 * Spawns `node <bin> worker <target>` and waits for the worker's "serving" log line (the JSON line holding
 * `startup`, which needs `SKEIN_LOG_PRETTY=0` and `SKEIN_LOG_LEVEL=info` in `env`).
 * @param bin path of the `skein` bin script.
 * @param target project or build directory.
 * @param env the child's whole environment.
 * @returns `{ child, ready, readyMs }`: the child process, the parsed log line and the ms from spawn to it.
 * @throws Error with the worker's stderr when it exits before it serves.
 */
export async function spawnWorker(bin, target, env) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'worker', target], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const ready = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"startup"'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${err}`)));
  });
  return { child, ready, readyMs: performance.now() - t0 };
}
