/** The reference server's API conformance suite, unchanged, through `mock.fetch` (no interception). */
import { afterAll } from 'vitest';
import { describeApiConformance } from '../../runtime/test/api-conformance.ts';
import { setupMockApi } from '../src/node.ts';

const ADMIN_TOKEN = 'conformance-admin-token-0123';
const mock = setupMockApi({ adminToken: ADMIN_TOKEN });
afterAll(() => mock.close());

describeApiConformance('in-process mock through mock.fetch', async () => ({ fetch: (path, init) => mock.fetch(path, init), adminToken: ADMIN_TOKEN }));
