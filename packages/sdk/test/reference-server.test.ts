/** The SDK integration suite against the real reference server process, over HTTP on loopback (PGlite). */
import { afterAll } from 'vitest';
import { startServerProcess } from '../../reference-server/test/helpers.ts';
import { describeSdkIntegration } from './integration/sdk-suite.ts';

const ADMIN_TOKEN = 'sdk-integration-admin-token-0123';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

describeSdkIntegration('reference server process', async () => {
  const server = await startServerProcess({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.5' });
  stops.push(() => server.stop());
  return { baseUrl: server.url, adminToken: ADMIN_TOKEN, deliversWebhooks: true };
});
