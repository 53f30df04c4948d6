/** Keys whose values are credentials, compared lower-case without `-` and `_`. */
const CREDENTIAL_KEYS = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'bearer',
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'credential',
  'credentials',
  'privatekey',
  'secretkey',
  'secretaccesskey',
  'awssecretaccesskey',
]);

/** The text that replaces a redacted value. */
export const REDACTED = '[REDACTED]';

/** True when a key names a credential (`apiKey`, `api_key`, `Authorization`, `client-secret`, ...). */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/**
 * A deep copy of `value` with credential-like fields replaced by `[REDACTED]`. Cycles become `[Circular]`;
 * nesting deeper than `maxDepth` (default 32) becomes `[Truncated]`.
 */
export function redact(value: unknown, maxDepth = 32): unknown {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    if (depth >= maxDepth) return '[Truncated]';
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = isCredentialKey(k) ? REDACTED : walk(x, depth + 1);
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0);
}
