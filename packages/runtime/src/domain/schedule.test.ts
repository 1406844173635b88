import { describe, expect, it } from 'vitest';
import { nextRecurringRun } from './schedule.ts';

describe('recurring schedule', () => {
  it('finds the next listed weekday and time in UTC', () => {
    const days = { monday: ['09:00', '18:30'], friday: ['10:00'] };
    // 2026-01-05 is a Monday.
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T08:00:00Z'))?.toISOString()).toBe('2026-01-05T09:00:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T09:00:00.001Z'))?.toISOString()).toBe('2026-01-05T18:30:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-05T19:00:00Z'))?.toISOString()).toBe('2026-01-09T10:00:00.000Z');
    expect(nextRecurringRun(days, 'UTC', new Date('2026-01-09T10:00:01Z'))?.toISOString()).toBe('2026-01-12T09:00:00.000Z');
  });

  it('keeps a year before 100 as it is', () => {
    // 0001-01-01 is a Monday, 0050-01-01 a Saturday.
    expect(nextRecurringRun({ monday: ['09:00'] }, 'UTC', new Date('0001-01-01T00:00:00Z'))?.toISOString()).toBe('0001-01-01T09:00:00.000Z');
    expect(nextRecurringRun({ monday: ['09:00'] }, 'UTC', new Date('0050-01-01T00:00:00Z'))?.toISOString()).toBe('0050-01-03T09:00:00.000Z');
  });

  it('reads times in the company time zone, across a DST change', () => {
    expect(nextRecurringRun({ monday: ['09:00'] }, 'Asia/Kolkata', new Date('2026-01-05T00:00:00Z'))?.toISOString()).toBe('2026-01-05T03:30:00.000Z');
    // New York: EST (UTC-5) in January, EDT (UTC-4) after 2026-03-08.
    expect(nextRecurringRun({ monday: ['09:00'] }, 'America/New_York', new Date('2026-03-02T00:00:00Z'))?.toISOString()).toBe('2026-03-02T14:00:00.000Z');
    expect(nextRecurringRun({ monday: ['09:00'] }, 'America/New_York', new Date('2026-03-09T00:00:00Z'))?.toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });
});
