/** `skein workflow signal | query | update | stop | terminate | reset`. */
import type { Command } from 'commander';
import { action, clientFrom, parseJson, runTarget, UsageError, withClientOptions, type ClientFlags } from '../../client/common.js';
import { inert, out, outJson, paint, prettyJson } from '../../client/output.js';

interface PayloadFlags extends ClientFlags {
  payload?: string;
}

interface RunFlags extends ClientFlags {
  run?: string;
  reason?: string;
}

interface ResetFlags extends RunFlags {
  step: string;
}

function handlerCommand(cmd: Command, kind: string): Command {
  return withClientOptions(
    cmd
      .argument('<workflowId>', 'the workflow execution id (its latest run receives it)')
      .argument('<name>', `the ${kind} name`)
      .option('--payload <json>', `the ${kind} handler's argument, as JSON`),
  );
}

function payloadOf(flags: PayloadFlags): unknown {
  return flags.payload === undefined ? undefined : parseJson(flags.payload, '--payload');
}

function ref(workflowId: string, runId: string): string {
  return paint('dim', `${inert(workflowId)}  run ${inert(runId)}`);
}

/** Registers the control commands on the `workflow` command. */
export function registerControlCommands(workflow: Command): void {
  handlerCommand(workflow.command('signal'), 'signal')
    .description('send a signal to the latest run')
    .action(
      action(async (workflowId: string, name: string, flags: PayloadFlags) => {
        const payload = payloadOf(flags);
        if (payload !== undefined && (payload === null || typeof payload !== 'object' || Array.isArray(payload))) {
          throw new UsageError('--payload of a signal must be a JSON object');
        }
        const r = await clientFrom(flags).signal(workflowId, name, payload as Record<string, unknown> | undefined);
        if (flags.json) outJson(r);
        else out(`signal ${inert(name)} sent  ${ref(r.workflowId, r.runId)}\n`);
      }),
    );

  for (const kind of ['query', 'update'] as const) {
    handlerCommand(workflow.command(kind), kind)
      .description(
        kind === 'query'
          ? 'run a query handler of the latest run and print its answer'
          : 'run an update handler of the latest run, wait for it and print its answer',
      )
      .action(
        action(async (workflowId: string, name: string, flags: PayloadFlags) => {
          const client = clientFrom(flags);
          const value = kind === 'query' ? await client.query(workflowId, name, payloadOf(flags)) : await client.update(workflowId, name, payloadOf(flags));
          if (flags.json) outJson(value);
          else if (value !== undefined) out(prettyJson(value));
        }),
      );
  }

  runTarget(workflow.command('stop'))
    .description('request cancellation of a run (the workflow may clean up before it closes)')
    .action(
      action(async (workflowId: string, flags: RunFlags) => {
        const r = await clientFrom(flags).stop(workflowId, { runId: flags.run });
        if (flags.json) outJson(r);
        else out(`cancellation requested  ${ref(r.workflowId, r.runId)}\n`);
      }),
    );

  runTarget(workflow.command('terminate'))
    .description('terminate a run at once (no cleanup)')
    .option('--reason <text>', 'recorded in the run history')
    .action(
      action(async (workflowId: string, flags: RunFlags) => {
        const r = await clientFrom(flags).terminate(workflowId, { runId: flags.run, reason: flags.reason });
        if (flags.json) outJson(r);
        else out(`terminated  ${ref(r.workflowId, r.runId)}\n`);
      }),
    );

  runTarget(workflow.command('reset'))
    .description("reset a run to just after a step's last completion: a new run replays up to there and goes on")
    .requiredOption('--step <stepName>', 'the step to reset after')
    .option('--reason <text>', 'recorded in the run history')
    .action(
      action(async (workflowId: string, flags: ResetFlags) => {
        const r = await clientFrom(flags).reset(workflowId, flags.step, { runId: flags.run, reason: flags.reason });
        if (flags.json) outJson(r);
        else out(`reset after step ${inert(flags.step)}: new run  ${ref(r.workflowId, r.runId)}\n`);
      }),
    );
}
