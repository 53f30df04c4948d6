/** `skein catalog [name]`: the workflows a catalog serves, or one workflow's aliases, activities and schemas. */
import type { Command } from 'commander';
import { SkeinApiError, type CatalogResponse, type CatalogWorkflow } from '@skein/client';
import { action, clientConventions, clientFrom, withClientOptions, type ClientFlags } from '../client/common.js';
import { formatTime, inert, keyValues, out, outJson, paint, prettyJson, table } from '../client/output.js';

interface CatalogFlags extends ClientFlags {
  catalog?: string;
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

/** Members newer APIs add to the catalog document: its polling workers, and (default route) every catalog. */
interface CatalogExtras {
  workers?: Array<{ identity: string; lastPollAt: number }>;
  catalogs?: Array<{ catalog: string; live: boolean }>;
}

function overview(doc: CatalogResponse & CatalogExtras): string {
  const workers = doc.workers ? `  ${paint('dim', `${doc.workers.length} worker(s) polling`)}` : '';
  const head = `${paint('bold', `catalog ${inert(doc.catalog)}`)}  ${paint('dim', `published ${formatTime(doc.publishedAt)}`)}${workers}\n`;
  const others = doc.catalogs?.filter((c) => c.catalog !== doc.catalog) ?? [];
  const tail =
    (doc.sharedActivities.length ? `\n${paint('dim', 'shared activities:')} ${doc.sharedActivities.map((a) => inert(a.name)).join(', ')}\n` : '') +
    (others.length ? `${paint('dim', 'other catalogs:')} ${others.map((c) => `${inert(c.catalog)}${c.live ? '' : ' (no worker)'}`).join(', ')}\n` : '');
  if (doc.workflows.length === 0) return `${head}${paint('dim', 'no workflows\n')}${tail}`;
  const rows = doc.workflows.map((w) => [inert(w.name), inert(w.aliases.join(', ')) || '-', String(w.activities.length), inert(w.description)]);
  return `${head}\n${table(['name', 'aliases', 'activities', 'description'], rows)}${tail}`;
}

function details(w: CatalogWorkflow): string {
  let text = paint('bold', inert(w.name)) + '\n';
  if (w.description) text += `${inert(w.description)}\n`;
  text += '\n' + keyValues([['aliases', inert(w.aliases.join(', ')) || '-']]);
  text += `\n${paint('dim', 'activities')}\n`;
  text += w.activities.length
    ? indent(
        table(
          ['kind', 'name', 'activity type'],
          w.activities.map((a) => [inert(a.kind) + (a.shared ? ' (shared)' : ''), inert(a.name), inert(a.type)]),
        ),
      )
    : '  -\n';
  text += `\n${paint('dim', 'input schema')}\n${indent(w.inputSchema ? prettyJson(w.inputSchema) : 'none (any input)\n')}`;
  if (w.outputSchema) text += `\n${paint('dim', 'output schema')}\n${indent(prettyJson(w.outputSchema))}`;
  const schedules = w.schedules ?? [];
  if (schedules.length) {
    const when = (s: (typeof schedules)[number]) =>
      [...(s.cron ?? []), ...(s.every ? [`every ${s.every}`] : [])].join(', ') + (s.timezone ? ` (${s.timezone})` : '');
    text += `\n${paint('dim', 'declared schedules')}\n${indent(
      table(
        ['id', 'when'],
        schedules.map((s) => [s.id, when(s)]),
      ),
    )}`;
  }
  return text;
}

/** Adds `catalog` to `program`. */
export function registerCatalogCommand(program: Command): void {
  withClientOptions(clientConventions(program.command('catalog')))
    .description("list a catalog's workflows, or show one workflow's aliases, activities and input schema")
    .argument('[name]', 'a workflow name or alias')
    .option('--catalog <catalog>', "the catalog (task queue) (default: the API's default catalog)")
    .action(
      action(async (name: string | undefined, flags: CatalogFlags) => {
        const doc = await clientFrom(flags).catalog(flags.catalog);
        if (name === undefined) return flags.json ? outJson(doc) : out(overview(doc));
        const w = doc.workflows.find((x) => x.name === name || x.aliases.includes(name));
        if (!w) {
          throw new SkeinApiError({
            status: 404,
            type: 'UnsupportedWorkflowError',
            message: `Workflow "${name}" is not registered in catalog "${doc.catalog}"`,
          });
        }
        if (flags.json) outJson(w);
        else out(details(w));
      }),
    );
}
