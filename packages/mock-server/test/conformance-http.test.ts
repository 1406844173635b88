/** The reference server's API conformance suite, unchanged, against the HTTP mock (`engagekit-mock`, a spawned process). */
import { afterAll } from 'vitest';
import { describeApiConformance } from '../../runtime/test/api-conformance.ts';
import { type MockProcess, startMockProcess } from './helpers.ts';

const ADMIN_TOKEN = 'conformance-admin-token-0123';
let proc: MockProcess | undefined;
afterAll(async () => {
  await proc?.stop();
});

describeApiConformance('HTTP mock process (memory engine)', async () => {
  proc = await startMockProcess([], { ADMIN_TOKEN });
  const url = proc.url;
  return { fetch: (path, init) => fetch(url + path, init), adminToken: ADMIN_TOKEN };
});
