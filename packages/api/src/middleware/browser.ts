/**
 * Browser safety (docs/reference/api-contract.md, "Requests"; `ForbiddenOriginError`): a request whose `Host` or `Origin` is not
 * on the allow-list is refused with 403 before anything else runs, so no web page can signal, stop or terminate
 * a run and DNS rebinding finds nothing; allowed origins get proper CORS answers (preflight included) from
 * `@koa/cors`.
 */
import cors from '@koa/cors';
import type Koa from 'koa';
import { ApiError } from '../errors.js';
import type { ApiState } from '../route.js';

/** Host names always allowed: the loopback names. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK.has(h) || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Host name (no port) of a `Host` header value, or undefined when it is not a valid host. */
function hostnameOf(host: string): string | undefined {
  if (/[/?#@\\\s]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** What {@link browserGuard} allows beyond loopback. */
export interface BrowserPolicy {
  /** Extra origins (`scheme://host[:port]`, lower case), or `*`. */
  corsOrigins: string[];
  /** Extra host names (no port), or `*`. */
  allowedHosts: string[];
  /** The configured listen address; allowed as a host name unless it is a wildcard address. */
  listenHost: string;
}

/** What the routes accept, which a preflight lists. */
export interface AcceptedRequests {
  /** The methods the routes answer (listed with `OPTIONS`). */
  methods: string[];
  /** Request headers routes read beyond the ones every route may. */
  headers: string[];
}

/** Request headers any route may read: the body's type and encoding, the token, the request id, an SSE resume point. */
const COMMON_HEADERS = ['Content-Type', 'Content-Encoding', 'Authorization', 'X-Request-ID', 'Last-Event-ID'];

/**
 * Whether `origin` (an `Origin` header value) is allowed: any loopback origin (http or https, any port), one
 * listed in `policy.corsOrigins`, or any when the list holds `*`. `null` (opaque origins) is never allowed.
 */
export function originAllowed(origin: string, policy: BrowserPolicy): boolean {
  if (policy.corsOrigins.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopback(url.hostname)) return true;
  return policy.corsOrigins.includes(url.origin.toLowerCase());
}

/** Whether a `Host` header value is allowed: loopback names, the listen address, `policy.allowedHosts` (or `*`). */
export function hostAllowed(host: string, policy: BrowserPolicy): boolean {
  if (policy.allowedHosts.includes('*')) return true;
  const name = hostnameOf(host);
  if (name === undefined) return false;
  if (isLoopback(name)) return true;
  const listen = policy.listenHost.toLowerCase();
  if (listen !== '0.0.0.0' && listen !== '::' && (name === listen || name === `[${listen}]`)) return true;
  return policy.allowedHosts.includes(name);
}

/**
 * Health probes answer whatever `Host` they are sent with: an orchestrator probes a pod by its address
 * (`Host: 10.1.2.3:3001`), and what they answer (up, engine reachable) is no secret. The `Origin` check still applies.
 */
const PROBE_PATHS = new Set(['/health', '/ready']);

/** Response headers a browser script may read. */
const EXPOSED = ['X-Request-ID', 'traceparent', 'Retry-After', 'Allow', 'Deprecation', 'Sunset', 'Link', 'Location'];

/**
 * The 403 guard, then `@koa/cors` for allowed origins: `Access-Control-Allow-Origin` echoes the origin
 * (`Vary: Origin`), preflights answer 204 with the methods and headers the API accepts (cached 10 minutes).
 * Requests without `Origin` (curl, server-side clients) pass the origin check; every request's `Host` is checked,
 * except a health probe's (`GET /health`, `GET /ready`).
 * @throws ApiError `ForbiddenOriginError` (403).
 */
export function browserGuard(policy: BrowserPolicy, accepted: AcceptedRequests = { methods: [], headers: [] }): Koa.Middleware<ApiState> {
  const corsMiddleware = cors({
    origin: (ctx) => ctx.get('Origin'),
    allowMethods: [...new Set([...accepted.methods.map((m) => m.toUpperCase()), 'OPTIONS'])],
    allowHeaders: [...new Set([...COMMON_HEADERS, ...accepted.headers])],
    exposeHeaders: EXPOSED,
    maxAge: 600,
    keepHeadersOnError: true,
  }) as unknown as Koa.Middleware<ApiState>;
  return async (ctx, next) => {
    const host = ctx.get('Host');
    const probe = (ctx.method === 'GET' || ctx.method === 'HEAD') && PROBE_PATHS.has(ctx.path);
    if (host !== '' && !probe && !hostAllowed(host, policy)) {
      throw new ApiError('ForbiddenOriginError', {
        message: `Host "${host.slice(0, 200)}" is not allowed; add it to SKEIN_ALLOWED_HOSTS`,
      });
    }
    const origin = ctx.get('Origin');
    if (origin !== '' && !originAllowed(origin, policy)) {
      throw new ApiError('ForbiddenOriginError', {
        message: `Origin "${origin.slice(0, 200)}" is not allowed; add it to SKEIN_CORS_ORIGINS`,
      });
    }
    await corsMiddleware(ctx, next);
  };
}
