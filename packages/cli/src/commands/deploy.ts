/**
 * `skein deploy status|promote <buildId>|ramp <buildId> <percent>|rollback`: a catalog's Temporal worker
 * deployment, read and changed over the engine's deployment RPCs (TEMPORAL_ADDRESS and Temporal's other
 * environment settings), for operators and CD systems. Promoting or rolling back also publishes the chosen
 * build's catalog, so the API serves that build's workflows at once.
 * Promoting (or ramping runs to) a build of another project than the current version's needs `--allow-project-change`.
 * Exit codes: 0 done, 2 usage error (unknown build ID, bad percentage, nothing to roll back to, no such
 * deployment, a build of another project without `--allow-project-change`, a catalog record naming another catalog),
 * 3 engine unreachable or engine error.
 */
import os from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Client } from '@temporalio/client';
import type { DeploymentState } from '@skein/worker/deployment';
import { action, clientConventions, UsageError } from '../client/common.js';
import { formatTime, inert, note, out, outJson, paint, table } from '../client/output.js';

interface DeployFlags {
  catalog: string;
  deployment?: string;
  json?: boolean;
}

/** Who changes the routing, as the engine records it. */
const identity = () => `skein-cli@${os.hostname()}/${process.pid}`;

/** Opens a client from Temporal's environment settings, runs `fn`, closes the connection. */
async function withEngine<T>(fn: (client: Client, deploy: typeof import('@skein/worker/deployment')) => Promise<T>): Promise<T> {
  const [deploy, { Client, Connection }] = await Promise.all([import('@skein/worker/deployment'), import('@temporalio/client')]);
  const engine = deploy.loadEngineConfig();
  let connection;
  try {
    connection = await Connection.connect({ ...(engine.connectionOptions as object), address: engine.address, connectTimeout: 5000 });
  } catch (err) {
    throw new Error(`Cannot reach the Temporal server at ${engine.address} (TEMPORAL_ADDRESS): ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  try {
    return await fn(new Client({ connection, namespace: engine.namespace }), deploy);
  } finally {
    await connection.close();
  }
}

/** The deployment the flags name: `--deployment`, else `SKEIN_DEPLOYMENT_NAME`, else the catalog's name. */
function deploymentName(flags: DeployFlags, deploy: typeof import('@skein/worker/deployment')): string {
  return flags.deployment ?? deploy.loadDeploymentConfig(flags.catalog).name;
}

/** The deployment's state. @throws UsageError when the engine knows no such deployment. */
async function stateOf(client: Client, deploy: typeof import('@skein/worker/deployment'), name: string): Promise<DeploymentState> {
  const state = await deploy.describeDeployment(client, name);
  if (!state) throw new UsageError(`No worker deployment "${name}": no versioned worker has polled under that name (check --catalog / --deployment)`);
  return state;
}

/** @throws UsageError naming the known build IDs when `buildId` is not one of them. */
function knownBuild(state: DeploymentState, buildId: string): void {
  if (state.versions.some((v) => v.buildId === buildId)) return;
  const known = state.versions.map((v) => v.buildId).join(', ') || 'none';
  throw new UsageError(`Unknown build ID "${buildId}" in deployment "${state.name}"; known build IDs: ${known}`);
}

/** `--catalog`: no `@`, which separates a catalog from a build ID in the ids of Skein's records. */
const catalogName = (value: string): string => {
  if (value === '' || value.includes('@')) throw new InvalidArgumentError('a catalog name, without "@"');
  return value;
};

const percent = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('a percentage from 0 to 100');
  return n;
};

/**
 * Makes `buildId` current and publishes its catalog under `flags.catalog`; prints one line. The build's catalog
 * record is checked before the routing changes. A build without a running worker (no record) is made current and the
 * previous build's catalog is retired, so the API answers `CatalogNotAvailableError` until a worker of the build
 * publishes its own rather than serving the previous build's workflows.
 * @throws UsageError when the build's record names another catalog or build, or is not a catalog record.
 */
async function makeCurrent(
  client: Client,
  deploy: typeof import('@skein/worker/deployment'),
  flags: DeployFlags,
  state: DeploymentState,
  buildId: string,
  verb: string,
): Promise<void> {
  const doc = await deploy.readCatalogRecord(client, flags.catalog, buildId).catch((err: unknown) => {
    if (err instanceof deploy.CatalogRecordMismatchError) throw new UsageError(err.message);
    throw err;
  });
  await deploy.setCurrentVersion(client, state.name, buildId, identity());
  if (doc) {
    await deploy.publishCatalog(client, { ...doc, catalog: flags.catalog, publishedAt: Date.now() });
    await deploy.syncDeclaredSchedules(client, { ...doc, catalog: flags.catalog });
  } else await deploy.retireOtherCatalog(client, flags.catalog, buildId);
  const published = doc !== undefined;
  // A build whose workers all stopped still has its record: say so, as the API refuses its catalog meanwhile.
  const liveWorker = published ? await leaseAlive(deploy, client, flags.catalog, buildId) : false;
  if (flags.json) return outJson({ deployment: state.name, current: buildId, previous: state.current, catalogPublished: published, liveWorker });
  out(`${verb} build ${inert(buildId)}: now the current version of deployment "${inert(state.name)}" (was ${inert(state.current ?? 'none')})\n`);
  if (!published) note(`no running worker of build ${buildId} recorded a catalog for "${flags.catalog}": the API serves it once one starts`);
  else if (liveWorker === false) note(noLiveWorker(deploy, buildId, flags.catalog, 'the API refuses new runs of the catalog (CatalogNotAvailableError)'));
}

/**
 * Whether a live worker of the build holds its lease; null when the engine could not say (the routing was changed
 * already: a failed check must not turn that into a failed command).
 */
async function leaseAlive(deploy: typeof import('@skein/worker/deployment'), client: Client, catalog: string, buildId: string): Promise<boolean | null> {
  return deploy.buildLeaseAlive(client, catalog, buildId).catch(() => null);
}

/** The warning for routing runs to a build none of whose workers renewed its lease lately. */
const noLiveWorker = (deploy: typeof import('@skein/worker/deployment'), buildId: string, catalog: string, meanwhile: string): string =>
  `no live worker of build ${buildId} serves "${catalog}" (none renewed its lease in the last ${deploy.CATALOG_LEASE_TTL_MS / 1000} s): ${meanwhile} until one starts`;

/**
 * Refuses to make `buildId` current, or to ramp runs to it, when it belongs to another project than the current
 * version (each build's project identity, from its version's metadata), unless `allowed`. A build that records none counts as any project.
 * @throws UsageError naming both projects and the flag.
 */
async function sameProject(
  client: Client,
  deploy: typeof import('@skein/worker/deployment'),
  state: DeploymentState,
  buildId: string,
  allowed: boolean,
): Promise<void> {
  if (allowed || !state.current || state.current === buildId) return;
  const projects = await deploy.versionProjects(client, state.name, [state.current, buildId]);
  const from = projects.get(state.current);
  const to = projects.get(buildId);
  if (from && to && from !== to) {
    throw new UsageError(
      `build ${buildId} belongs to project "${to}", the current version ${state.current} to project "${from}": pass --allow-project-change to hand the catalog to "${to}"`,
    );
  }
}

function statusTable(state: DeploymentState, workers: Map<string, number>, projects: Map<string, string | null>): string {
  const head = `${paint('bold', `deployment ${inert(state.name)}`)}  current ${inert(state.current ?? 'none')}${state.ramping ? `  ramping ${inert(state.ramping.buildId)} (${state.ramping.percent}%)` : ''}\n\n`;
  const rows = state.versions.map((v) => [
    inert(v.buildId),
    inert(projects.get(v.buildId) ?? '-'),
    v.buildId === state.current ? 'current' : state.ramping?.buildId === v.buildId ? `ramping ${state.ramping.percent}%` : inert(v.state),
    inert(v.drainage ?? '-'),
    String(workers.get(v.buildId) ?? 0),
    formatTime(v.createdAt),
  ]);
  return head + table(['build ID', 'project', 'state', 'drainage', 'workers', 'created'], rows);
}

/** Adds `deploy` and its subcommands to `program`. */
export function registerDeployCommand(program: Command): void {
  const deploy = clientConventions(program.command('deploy')).description(
    "show and change which build of a catalog's workers serves new runs (Temporal Worker Versioning; TEMPORAL_ADDRESS)",
  );
  const common = (cmd: Command) =>
    clientConventions(cmd)
      .addOption(new Option('--catalog <catalog>', 'the catalog (task queue)').env('SKEIN_CATALOG').default('main').argParser(catalogName))
      .option('--deployment <name>', 'the worker deployment (default SKEIN_DEPLOYMENT_NAME, else the catalog)')
      .option('--json', 'print JSON for scripts instead of a table')
      .addHelpText(
        'after',
        '\nExit codes: 0 done, 2 usage error (unknown build ID, no such deployment, another project without --allow-project-change), 3 engine unreachable or engine error.',
      );

  common(deploy.command('status'))
    .description('each version (build) of the deployment: current or ramping, drainage, live workers')
    .action(
      action(async (flags: DeployFlags) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          const builds = state.versions.map((v) => v.buildId);
          const [polled, projects, leased] = await Promise.all([
            d.livePollers(client, flags.catalog).catch(() => []),
            d.versionProjects(client, state.name, builds),
            Promise.all(builds.map((b) => leaseAlive(d, client, flags.catalog, b))),
          ]);
          // The engine lists a worker's polls for about a minute after it died; a build whose lease lapsed has none
          // alive, so its pollers are not counted (a lease the engine could not read leaves them counted).
          const alive = new Set(builds.filter((_, i) => leased[i] !== false));
          const pollers = polled.filter((p) => p.buildId !== null && alive.has(p.buildId));
          const workers = new Map<string, number>();
          for (const p of pollers) if (p.buildId) workers.set(p.buildId, (workers.get(p.buildId) ?? 0) + 1);
          if (flags.json) {
            return outJson({
              ...state,
              versions: state.versions.map((v) => ({
                ...v,
                project: projects.get(v.buildId) ?? null,
                workers: pollers.filter((p) => p.buildId === v.buildId).map((p) => p.identity),
              })),
            });
          }
          out(statusTable(state, workers, projects));
        }),
      ),
    );

  common(deploy.command('promote'))
    .description('make a build the current version: new runs go to it; runs pinned to other builds stay where they are')
    .argument('<buildId>', 'a build ID listed by skein deploy status')
    .option('--allow-project-change', "allow a build of another project than the current version's (hands the catalog to that project)")
    .action(
      action(async (buildId: string, flags: DeployFlags & { allowProjectChange?: boolean }) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          knownBuild(state, buildId);
          await sameProject(client, d, state, buildId, flags.allowProjectChange === true);
          await makeCurrent(client, d, flags, state, buildId, 'promoted');
        }),
      ),
    );

  common(deploy.command('ramp'))
    .description('send a percentage of new runs to a build, the rest to the current version (0 ends the ramp)')
    .argument('<buildId>', 'a build ID listed by skein deploy status')
    .argument('<percent>', 'share of new runs, 0 to 100', percent)
    .option('--allow-project-change', "allow a build of another project than the current version's (sends it that share of the catalog's runs)")
    .action(
      action(async (buildId: string, share: number, flags: DeployFlags & { allowProjectChange?: boolean }) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          knownBuild(state, buildId);
          // A share of runs routed to another project's build is a handover too: its workflows are not this catalog's.
          if (share > 0) await sameProject(client, d, state, buildId, flags.allowProjectChange === true);
          await d.setRampingVersion(client, state.name, share === 0 ? null : buildId, share, identity());
          const liveWorker = share === 0 || (await leaseAlive(d, client, flags.catalog, buildId));
          if (flags.json)
            return outJson({ deployment: state.name, current: state.current, ramping: share === 0 ? null : { buildId, percent: share }, liveWorker });
          out(
            share === 0
              ? `ramp of deployment "${inert(state.name)}" ended\n`
              : `build ${inert(buildId)} gets ${share}% of new runs of deployment "${inert(state.name)}"\n`,
          );
          if (liveWorker === false) note(noLiveWorker(d, buildId, flags.catalog, `the ${share}% of new runs it gets wait`));
        }),
      ),
    );

  common(deploy.command('rollback'))
    .description('make the build that was current before the current one current again')
    .action(
      action(async (flags: DeployFlags) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          // A build that served new runs before (the engine marks it draining or drained once replaced); the one
          // replaced last, by the engine's last-current time where it reports one, else the newest such build.
          const previous = state.versions
            .filter((v) => v.buildId !== state.current && (v.lastCurrentAt !== null || v.state === 'draining' || v.state === 'drained'))
            .sort((a, b) => (b.lastCurrentAt ?? 0) - (a.lastCurrentAt ?? 0) || (b.createdAt ?? 0) - (a.createdAt ?? 0))[0];
          if (!previous) throw new UsageError(`Deployment "${state.name}" has no earlier current version to roll back to`);
          await makeCurrent(client, d, flags, state, previous.buildId, 'rolled back to');
        }),
      ),
    );
}
