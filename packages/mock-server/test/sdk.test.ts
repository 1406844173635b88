/** The SDK's own integration suite against the in-process mock, through `mock.fetch` (webhooks go to the suite's loopback receiver). */
import { afterAll } from 'vitest';
import { describeSdkIntegration } from '../../sdk/test/integration/sdk-suite.ts';
import { setupMockApi } from '../src/node.ts';

const mock = setupMockApi({ baseUrl: 'https://api.engagekit-sdk.invalid' });
afterAll(() => mock.close());

describeSdkIntegration('in-process mock through mock.fetch', async () => ({
  baseUrl: mock.baseUrl,
  fetch: mock.fetch,
  adminToken: mock.adminToken,
  deliversWebhooks: true,
}));
