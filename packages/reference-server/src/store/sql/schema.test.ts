import { describe, expect, it } from 'vitest';
import { pgTimestampToIso } from './schema.ts';

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
