import { describe, expect, it } from 'vitest';
import { isStoreConflict, StoreConflictError } from './types.ts';

describe('isStoreConflict', () => {
  it('knows a StoreConflictError from another copy of the class by its name', () => {
    // What the CommonJS build of `@engagekit/runtime/store` throws, seen from `@engagekit/runtime`'s.
    class OtherCopy extends Error {
      override readonly name = 'StoreConflictError';
    }
    expect(isStoreConflict(new StoreConflictError('company_id', 'taken'))).toBe(true);
    expect(isStoreConflict(new OtherCopy('taken'))).toBe(true);
    expect(new OtherCopy('taken') instanceof StoreConflictError).toBe(false);
    expect(isStoreConflict(new Error('taken'))).toBe(false);
    expect(isStoreConflict({ name: 'StoreConflictError' })).toBe(false);
  });
});
