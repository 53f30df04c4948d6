/**
 * `skein deploy status|promote <buildId>|ramp <buildId> <percent>|rollback`: a catalog's Temporal worker
 * deployment, read and changed over the engine's deployment RPCs (TEMPORAL_ADDRESS and Temporal's other
 * environment settings), for operators and CD systems. Promoting or rolling back also publishes the chosen
 * build's catalog, so the API serves that build's workflows at once.
 * Exit codes: 0 done, 2 usage error (unknown build ID, bad percentage, nothing to roll back to, no such
 * deployment), 3 engine unreachable or engine error.
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

const percent = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('a percentage from 0 to 100');
  return n;
};

/** Makes `buildId` current and publishes its catalog; prints one line. */
async function makeCurrent(
  client: Client,
  deploy: typeof import('@skein/worker/deployment'),
  flags: DeployFlags,
  state: DeploymentState,
  buildId: string,
  verb: string,
): Promise<void> {
  await deploy.setCurrentVersion(client, state.name, buildId, identity());
  const published = await deploy.publishCurrentCatalog(client, flags.catalog, buildId);
  if (flags.json) return outJson({ deployment: state.name, current: buildId, previous: state.current, catalogPublished: published });
  out(`${verb} build ${inert(buildId)}: now the current version of deployment "${inert(state.name)}" (was ${inert(state.current ?? 'none')})\n`);
  if (!published) note(`no running worker of build ${buildId} recorded a catalog for "${flags.catalog}": the API serves it once one starts`);
}

function statusTable(state: DeploymentState, workers: Map<string, number>): string {
  const head = `${paint('bold', `deployment ${inert(state.name)}`)}  current ${inert(state.current ?? 'none')}${state.ramping ? `  ramping ${inert(state.ramping.buildId)} (${state.ramping.percent}%)` : ''}\n\n`;
  const rows = state.versions.map((v) => [
    inert(v.buildId),
    v.buildId === state.current ? 'current' : state.ramping?.buildId === v.buildId ? `ramping ${state.ramping.percent}%` : inert(v.state),
    inert(v.drainage ?? '-'),
    String(workers.get(v.buildId) ?? 0),
    formatTime(v.createdAt),
  ]);
  return head + table(['build ID', 'state', 'drainage', 'workers', 'created'], rows);
}

/** Adds `deploy` and its subcommands to `program`. */
export function registerDeployCommand(program: Command): void {
  const deploy = clientConventions(program.command('deploy')).description(
    "show and change which build of a catalog's workers serves new runs (Temporal Worker Versioning; TEMPORAL_ADDRESS)",
  );
  const common = (cmd: Command) =>
    clientConventions(cmd)
      .addOption(new Option('--catalog <catalog>', 'the catalog (task queue)').env('SKEIN_CATALOG').default('main'))
      .option('--deployment <name>', 'the worker deployment (default SKEIN_DEPLOYMENT_NAME, else the catalog)')
      .option('--json', 'print JSON for scripts instead of a table')
      .addHelpText('after', '\nExit codes: 0 done, 2 usage error (unknown build ID, no such deployment), 3 engine unreachable or engine error.');

  common(deploy.command('status'))
    .description('each version (build) of the deployment: current or ramping, drainage, live workers')
    .action(
      action(async (flags: DeployFlags) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          const pollers = await d.livePollers(client, flags.catalog).catch(() => []);
          const workers = new Map<string, number>();
          for (const p of pollers) if (p.buildId) workers.set(p.buildId, (workers.get(p.buildId) ?? 0) + 1);
          if (flags.json) {
            return outJson({
              ...state,
              versions: state.versions.map((v) => ({ ...v, workers: pollers.filter((p) => p.buildId === v.buildId).map((p) => p.identity) })),
            });
          }
          out(statusTable(state, workers));
        }),
      ),
    );

  common(deploy.command('promote'))
    .description('make a build the current version: new runs go to it; runs pinned to other builds stay where they are')
    .argument('<buildId>', 'a build ID listed by skein deploy status')
    .action(
      action(async (buildId: string, flags: DeployFlags) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          knownBuild(state, buildId);
          await makeCurrent(client, d, flags, state, buildId, 'promoted');
        }),
      ),
    );

  common(deploy.command('ramp'))
    .description('send a percentage of new runs to a build, the rest to the current version (0 ends the ramp)')
    .argument('<buildId>', 'a build ID listed by skein deploy status')
    .argument('<percent>', 'share of new runs, 0 to 100', percent)
    .action(
      action(async (buildId: string, share: number, flags: DeployFlags) =>
        withEngine(async (client, d) => {
          const state = await stateOf(client, d, deploymentName(flags, d));
          knownBuild(state, buildId);
          await d.setRampingVersion(client, state.name, share === 0 ? null : buildId, share, identity());
          if (flags.json) return outJson({ deployment: state.name, current: state.current, ramping: share === 0 ? null : { buildId, percent: share } });
          out(
            share === 0
              ? `ramp of deployment "${inert(state.name)}" ended\n`
              : `build ${inert(buildId)} gets ${share}% of new runs of deployment "${inert(state.name)}"\n`,
          );
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
