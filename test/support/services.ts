/**
 * The service binaries Skein's system tests run against, besides Temporal: SeaweedFS (`weed`, the S3-compatible
 * storage trace uploads go to), Jaeger (OTLP traces, queried back) and Prometheus (scrapes and PromQL). Each is found
 * or built once from the Go module proxy by `@skein/dev-server`'s `locateGoBinary`, the route that also builds the
 * `temporal` CLI: the variable named below when it names an executable, else `~/.cache/skein/bin/<name>`
 * (`$XDG_CACHE_HOME/skein/bin`), else a build with the `go` on PATH, cached for every later run.
 *
 * `test/support/system-setup.ts` installs them before the system tier starts; `npm run services:install` does the
 * same by hand (`scripts/install-services.mjs`).
 */
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { locateGoBinary, type GoBinarySpec } from '@skein/dev-server';

/** The service binaries by name, with the version the tests expect. */
export const SERVICES = {
  weed: {
    name: 'weed',
    label: 'SeaweedFS',
    envVar: 'SEAWEEDFS_WEED_PATH',
    module: 'github.com/seaweedfs/seaweedfs',
    command: 'weed',
    version: 'v0.0.0-20261109003541-7506e5f91cd6',
    // Its go.mod has replace directives, which `go install` refuses.
    method: 'source',
    expected: 'about 7 minutes on 2 cores',
  },
  jaeger: {
    name: 'jaeger',
    label: 'Jaeger',
    envVar: 'JAEGER_PATH',
    module: 'github.com/jaegertracing/jaeger',
    command: 'cmd/jaeger',
    version: 'v1.76.0',
    method: 'tool',
    expected: 'about 5 minutes on 2 cores',
  },
  prometheus: {
    name: 'prometheus',
    label: 'Prometheus',
    envVar: 'PROMETHEUS_PATH',
    module: 'github.com/prometheus/prometheus',
    command: 'cmd/prometheus',
    version: 'v0.316.0',
    method: 'install',
    expected: 'several minutes on 2 cores',
  },
} as const satisfies Record<string, GoBinarySpec>;

/** A service binary's name: `weed`, `jaeger` or `prometheus`. */
export type ServiceName = keyof typeof SERVICES;

/**
 * The path of an installed service binary, without building: its variable, else the cache.
 * @throws BinaryNotFoundError naming the binary, where it was looked for and the remedies
 *   (`npm run services:install`, the variable, Go).
 */
export async function servicePath(name: ServiceName): Promise<string> {
  try {
    return (await locateGoBinary(SERVICES[name])).path;
  } catch (err) {
    (err as Error).message += `; or run "npm run services:install ${name}"`;
    throw err;
  }
}

/**
 * Finds or builds every named service binary and sets its variable in `process.env` (so processes started later,
 * such as Vitest's test workers, inherit it). Builds run side by side as far as the cores allow: one build per two
 * cores (a Go build uses every core it gets), at least one.
 * @param log receives each progress line (what is built, elapsed time, the duration at the end).
 * @returns each name's path.
 * @throws AggregateError of the BinaryNotFoundErrors of the binaries that could not be built (after every build
 *   has finished or failed).
 */
export async function installServices(names: readonly ServiceName[], log: (line: string) => void): Promise<Record<ServiceName, string>> {
  const limit = pLimit(Math.max(1, Math.floor(availableParallelism() / 2)));
  const results = await Promise.allSettled(names.map((name) => limit(() => locateGoBinary(SERVICES[name], { install: true, log }))));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length > 0) throw new AggregateError(failures, failures.map((e) => e.message).join('\n'));
  const paths = {} as Record<ServiceName, string>;
  names.forEach((name, i) => {
    const path = (results[i] as PromiseFulfilledResult<{ path: string }>).value.path;
    paths[name] = path;
    process.env[SERVICES[name].envVar] = path;
  });
  return paths;
}
