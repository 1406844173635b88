/**
 * The fuzzer's generated requests reach the handlers: without a mutation, most of what it derives from
 * each operation's schemas passes those schemas (cross-field rules included). A contract change that
 * the derivation does not follow shows here, not as a fuzz run that only ever hears 400.
 */
import { type OperationSpec, operations } from '@engagekit/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolved, type World } from './realize.ts';
import { recipesFor } from './recipes.ts';

const world: World = {
  adminToken: 'admin',
  company: { uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', code: 'FUZZ-A' },
  other: { uuid: '00000000-0000-4000-8000-000000000002', code: 'FUZZ-B' },
  tokens: { company: 'c', agencyOnly: 'a', ordersOnly: 'o', otherCompany: 'x' },
  campaigns: ['cmp_1'],
  webhook: 'wh_1',
  spareWebhooks: ['wh_2'],
  deliveries: ['dlv_1'],
  orders: ['ORD-1'],
};

const parts = ['params', 'query', 'body'] as const;

describe.each((Object.values(operations) as OperationSpec[]).filter((op) => parts.some((p) => op[p])).map((op) => [op.operationId, op] as const))(
  'generated %s requests',
  (_, op) => {
    it('mostly pass the operation’s own schemas', () => {
      const samples = fc.sample(
        recipesFor(op).filter((r) => r.mutation === undefined),
        { numRuns: 200, seed: 1 },
      );
      const issues = new Map<string, number>();
      let passed = 0;
      for (const r of samples) {
        const failed = parts.flatMap((p) => op[p]?.safeParse(resolved(r[p], world)).error?.issues.map((i) => `${p}.${i.path.join('.')}: ${i.message}`) ?? []);
        if (failed.length === 0) passed++;
        for (const f of failed) issues.set(f, (issues.get(f) ?? 0) + 1);
      }
      // Unknown ids and the odd broken rule are meant; most must still get through.
      expect(passed, JSON.stringify([...issues].sort((a, b) => b[1] - a[1]).slice(0, 5))).toBeGreaterThanOrEqual(150);
    });
  },
);
