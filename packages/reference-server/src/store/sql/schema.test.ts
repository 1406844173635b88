import { Order } from '@engagekit/contract';
import type { OrderRecord } from '@engagekit/runtime/store';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { orderColumns } from './orders.ts';
import { type orders, pgTimestampToIso } from './schema.ts';

describe('the orders table', () => {
  it('has a column for every field of the contract’s Order and the record’s company_uuid, of the record’s type, and no other', () => {
    expect(Object.keys(orderColumns).sort()).toEqual([...Object.keys(Order.shape), 'company_uuid'].sort());
    // The table's columns satisfy the record's fields (schema.ts); their types are the record's too.
    expectTypeOf<Omit<typeof orders.$inferSelect, 'created_seq'>>().toEqualTypeOf<OrderRecord>();
  });
});

describe('pgTimestampToIso', () => {
  it('reads PostgreSQL timestamptz text as ISO-8601 UTC with milliseconds, as Date would', () => {
    const cases: [string, string][] = [
      ['2025-01-15 10:00:00+00', '2025-01-15T10:00:00.000Z'],
      ['2025-01-15 10:00:00.1+00', '2025-01-15T10:00:00.100Z'],
      ['2025-01-15 10:00:00.12+00', '2025-01-15T10:00:00.120Z'],
      ['2025-01-15 10:00:00.123+00', '2025-01-15T10:00:00.123Z'],
      // A session in another time zone.
      ['2025-01-15 15:30:00.5+05:30', '2025-01-15T10:00:00.500Z'],
      ['2025-01-15 05:00:00-05', '2025-01-15T10:00:00.000Z'],
    ];
    for (const [text, iso] of cases) {
      expect(pgTimestampToIso(text), text).toBe(iso);
      expect(new Date(iso).toISOString()).toBe(iso);
    }
    expect(pgTimestampToIso(new Date('2025-01-15T10:00:00.123Z'))).toBe('2025-01-15T10:00:00.123Z');
    expect(() => pgTimestampToIso('yesterday')).toThrow(/Unreadable timestamp/);
  });
});
