import { describe, expect, it } from 'vitest';
import { createSeededIds, resumeSeededIds } from './ids.ts';

describe('seeded ids', () => {
  it('give the same ids for the same seed, and carry on from a position as the sequence would have', () => {
    const a = createSeededIds('demo');
    const b = createSeededIds('demo');
    expect([a.newId('cmp'), a.uuid()]).toEqual([b.newId('cmp'), b.uuid()]);
    const resumed = resumeSeededIds(a.position());
    expect([resumed.newId('ord'), resumed.uuid(), resumed.newId('msg')]).toEqual([a.newId('ord'), a.uuid(), a.newId('msg')]);
    expect(createSeededIds(1).newId('x')).not.toBe(createSeededIds(2).newId('x'));
  });
});
