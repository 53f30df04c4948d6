import { installServices, SERVICES, type ServiceName } from './services.js';

/**
 * Global setup of the system tier (after `global-setup.ts` has started the shared Temporal dev server): finds or
 * builds, once, every service binary the system files run (SeaweedFS, Jaeger, Prometheus; `services.ts`), and sets
 * their variables (`SEAWEEDFS_WEED_PATH`, `JAEGER_PATH`, `PROMETHEUS_PATH`) for the test workers. Cached binaries
 * cost nothing; a fresh machine builds them here, side by side as far as the cores allow, printing what is built,
 * from where, the elapsed time every 30 s and each build's duration. Only this tier waits for them: the unit and
 * integration tiers never load this file.
 * @throws AggregateError when a binary can be neither found nor built (each message names its remedy).
 */
export default async function setup(): Promise<void> {
  const names = Object.keys(SERVICES) as ServiceName[];
  const started = Date.now();
  const paths = await installServices(names, (line) => console.log(`[services] ${line}`));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`[services] ready in ${seconds} s: ${names.map((n) => `${n} ${paths[n]}`).join(', ')}`);
}
