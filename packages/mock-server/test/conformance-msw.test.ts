/** The reference server's API conformance suite, unchanged, through the global fetch intercepted by MSW (`listen()`). */
import { afterAll, beforeAll } from 'vitest';
import { describeApiConformance } from '../../runtime/test/api-conformance.ts';
import { setupMockApi } from '../src/node.ts';

const ADMIN_TOKEN = 'conformance-admin-token-0123';
// A host that does not resolve: an answer can only come from the interception.
const mock = setupMockApi({ baseUrl: 'http://api.engagekit-conformance.invalid', adminToken: ADMIN_TOKEN });
beforeAll(() => mock.listen({ onUnhandledFrame: 'error' }));
afterAll(() => mock.close());

describeApiConformance('in-process mock through MSW interception', async () => ({
  fetch: (path, init) => fetch(`${mock.baseUrl}${path}`, init),
  adminToken: ADMIN_TOKEN,
}));
