import { createApp } from '../../runtime/src/app.ts';
import { createManualClock } from '../../runtime/src/clock.ts';
import type { AppConfig } from '../../runtime/src/context.ts';
import { hashToken } from '../../runtime/src/http/auth.ts';
import { createSeededIds, type IdGenerator } from '../../runtime/src/ids.ts';
import type { Logger } from '../../runtime/src/logger.ts';
import { createMemoryStore } from '../../runtime/src/store/memory/store.ts';
import type { Store } from '../../runtime/src/store/ports.ts';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/**
 * The app in-process on a store (memory by default), with a manual clock, ids seeded with 42 and
 * responses checked against the contract. A second app on the same store needs ids of its own.
 */
export async function inProcessApp(
  opts: { store?: Store; config?: Partial<AppConfig>; clock?: ReturnType<typeof createManualClock>; logger?: Logger; ids?: IdGenerator } = {},
) {
  const store = opts.store ?? createMemoryStore();
  const clock = opts.clock ?? createManualClock(new Date('2026-01-05T08:00:00.000Z'));
  const app = createApp({
    store,
    clock,
    ids: opts.ids ?? createSeededIds(42),
    ...(opts.logger ? { logger: opts.logger } : {}),
    config: {
      jwtSecret: 'test-jwt-secret-0123456789abcdef0123456789',
      adminTokenHash: hashToken(TEST_ADMIN_TOKEN),
      rateLimitPerMinute: 0,
      webhookAllowPrivate: false,
      validateResponses: true,
      ...opts.config,
    },
  });
  return { app, store, clock, fetch: (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init)) };
}
