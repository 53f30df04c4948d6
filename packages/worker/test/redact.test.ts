import { describe, expect, it } from 'vitest';
import { isCredentialKey, redact } from '../src/traces/redact.js';

describe('redact', () => {
  it.each(['password', 'apiKey', 'api_key', 'X-Api-Key', 'Authorization', 'client_secret', 'accessToken', 'token', 'privateKey', 'cookie'])(
    'treats %s as a credential',
    (key) => expect(isCredentialKey(key)).toBe(true),
  );

  it.each(['tokens', 'inputTokens', 'keep', 'author', 'passage', 'keywords'])('keeps %s', (key) => expect(isCredentialKey(key)).toBe(false));

  it('replaces credential values deeply, in arrays too, without touching the input', () => {
    const input = { user: 'ada', auth: { password: 'x', nested: [{ apiKey: 'k', n: 1 }] }, tokens: { input: 3 } };
    expect(redact(input)).toEqual({ user: 'ada', auth: { password: '[REDACTED]', nested: [{ apiKey: '[REDACTED]', n: 1 }] }, tokens: { input: 3 } });
    expect(input.auth.password).toBe('x');
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(redact(a)).toEqual({ name: 'a', self: '[Circular]' });
  });
});
