import { catalogSetting, choiceSetting, engineCheckSettings, flagSetting, intSetting, logLevelSetting, patternSetting, textSetting } from '@skein/settings';

/** The worker's metrics settings (read by `loadMetricsConfig`; OTLP's endpoint and protocol are OpenTelemetry's own variables). */
export const metricsSettings = {
  SKEIN_METRICS_PORT: patternSetting(/^\d{1,5}$/, 'a port number (0 to 65535)', {
    default: 'off',
    description:
      "serve Temporal's `temporal_*` and Skein's `skein_*` metrics for Prometheus at `http://<SKEIN_METRICS_HOST>:<port>/metrics` (`0`: a free port); as `skein worker --metrics-port`",
  }),
  SKEIN_METRICS_HOST: textSetting({ default: '127.0.0.1', description: 'the address the metrics endpoint listens on (`0.0.0.0`: every interface)' }),
  SKEIN_METRICS_OTLP: flagSetting({
    description: 'push the same metrics by OTLP instead (to `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT`)',
  }),
};

/** A duration as `ms` reads it (`7d`, `12h`, `30 minutes`) or a number of milliseconds. */
const DURATION = /^\d+(\.\d+)?\s*(ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)?$/i;

/**
 * Every `SKEIN_*` setting a worker reads, each with its default, parsing and documentation (the settings page is
 * generated from it). The engine connection (`TEMPORAL_*`) is read by Temporal's own env-config. Kept apart from
 * `config.ts` so that modules that must not load Temporal's SDK (`check.ts`) can read one setting.
 */
export const workerSettings = {
  SKEIN_CATALOG: catalogSetting,
  ...engineCheckSettings,
  SKEIN_DEPLOYMENT_NAME: patternSetting(/^[^.\s]{1,255}$/, 'a deployment name of at most 255 characters, without "." or whitespace', {
    default: '<catalog>',
    description: "the Temporal worker deployment (Worker Versioning) the worker's build belongs to; also read by `skein deploy`",
  }),
  SKEIN_BUILD_ID: patternSetting(/^[^.\s@]{1,255}$/, 'a build ID of at most 255 characters, without ".", "@" or whitespace', {
    default: '<content hash>',
    description:
      "the build ID (deployment version) the worker polls as, instead of the hash of the workflow bundle, the project's code, package.json's loading fields and resolved versions (`skein dev` sets `dev`)",
  }),
  // eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
  SKEIN_PROJECT: patternSetting(/^[^\u0000-\u001f\u007f]{1,214}$/, 'a project name of at most 214 characters, without control characters', {
    default: "package.json's name",
    description:
      "the project identity recorded with each build: a new build replaces the catalog's current version by itself only when both belong to the same project (without a package.json `name`: the folder's name, with a warning)",
  }),
  SKEIN_PROMOTE: choiceSetting(['auto', 'manual'], 'auto', {
    description:
      '`auto`: a new build becomes the current version once its worker polls; `manual`: only `skein deploy promote`/`ramp` change routing (as `skein worker --no-promote`)',
  }),
  SKEIN_TRACE_DIR: textSetting({
    default: '<project>/.skein/traces',
    description:
      "the worker's trace folder (`off`: no trace files); advertised in its build's catalog document (its own folder only), where the API finds it while the build is current and a worker of it lives",
  }),
  SKEIN_TRACE_RETENTION: patternSetting(DURATION, 'a duration such as 7d, 12h or a number of ms', {
    default: '7d',
    description: 'local trace files older than this are deleted by the worker',
  }),
  SKEIN_TRACE_S3_BUCKET: textSetting({
    description: 'upload every trace to this S3 bucket (region, endpoint and credentials: the AWS SDK settings)',
  }),
  SKEIN_TRACE_S3_PREFIX: textSetting({ description: 'key prefix of the trace objects (unset: none)' }),
  SKEIN_TRACE_SPOOL_DIR: textSetting({
    default: '<project>/.skein/trace-spool',
    description: 'where traces wait for their upload (kept across restarts)',
  }),
  SKEIN_BUNDLE_CACHE: textSetting({
    default: '<project>/.skein/bundles',
    description: 'folder of the workflow bundle cache (`off`: bundle on every start)',
  }),
  SKEIN_WEBPACK_CACHE: choiceSetting(['on', 'off'], 'on', {
    description:
      'webpack’s persistent cache beside the bundle cache: after a miss a background process writes it, so the next miss rebuilds only what changed (`off`: a miss bundles from scratch and nothing is written in the background; for starts that bundle once, such as CI)',
  }),
  SKEIN_STARTUP_CACHE: textSetting({
    default: '<project>/.skein/startup',
    description: 'folder of the startup cache of validation results and module facts (`off`: validate and load everything on every start)',
  }),
  SKEIN_SHUTDOWN_GRACE_MS: intSetting(
    10_000,
    { min: 0, max: 3_600_000 },
    {
      description:
        'on SIGTERM or SIGINT, how long in-flight activities may run before they are cancelled, in ms; 5 s later the worker stops without waiting for an activity that ignores the cancellation (set it below the orchestrator’s grace period minus 5 s)',
    },
  ),
  SKEIN_LOG_LEVEL: logLevelSetting,
  ...metricsSettings,
};

/**
 * How long after the shutdown grace time (`SKEIN_SHUTDOWN_GRACE_MS`, when in-flight activities are cancelled) the
 * worker stops without waiting for an activity that ignores the cancellation, ms. Temporal retries that attempt after
 * its start-to-close (or heartbeat) timeout. A supervisor that kills the worker sooner than grace + this loses the
 * cancellation's report: the attempt then waits for that timeout.
 */
export const SHUTDOWN_FORCE_EXTRA_MS = 5_000;
