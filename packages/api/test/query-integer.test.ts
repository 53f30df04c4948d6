import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.js';
import { historyQuerySchema } from '../src/schemas/history.js';

describe('integer query parameters', () => {
  it('take decimal digits only, not what Number() would also read', () => {
    expect(historyQuerySchema.parse({ pageSize: '16' }).pageSize).toBe(16);
    expect(historyQuerySchema.parse({}).pageSize).toBe(20);
    for (const pageSize of ['0x10', '1e1', ' 5', '5 ', '', '+5', '-1', '1.0', 'Infinity']) {
      const result = historyQuerySchema.safeParse({ pageSize });
      expect(result.success, JSON.stringify(pageSize)).toBe(false);
      expect(result.error?.issues[0]?.message, JSON.stringify(pageSize)).toBe('Must be a decimal integer');
    }
  });

  it('keep their bounds and their own messages for them', () => {
    expect(historyQuerySchema.safeParse({ pageSize: '51' }).error?.issues[0]).toMatchObject({ code: 'too_big', maximum: 50 });
    expect(historyQuerySchema.safeParse({ pageSize: '0' }).error?.issues[0]).toMatchObject({ code: 'too_small', minimum: 1 });
  });

  it('are integers with their bounds in /openapi.json', () => {
    const doc = buildOpenApiDocument() as any;
    const params = doc.paths['/workflow/{id}/history'].get.parameters as { name: string; schema: unknown }[];
    expect(params.find((p) => p.name === 'pageSize')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 20 });
  });
});
