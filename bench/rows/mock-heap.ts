/** The mock's memory row: the heap one mock retains. */
import v8 from 'node:v8';
import vm from 'node:vm';
import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import { atMost, type Bench, median, row } from '../lib.ts';
import { CAMPAIGN } from './mock-common.ts';

const HEAP_LIMIT_BYTES = 2 * 1024 * 1024;
const HEAP_MOCKS = 20;

/** 100 mixed requests a test might make: campaigns created, read and listed, orders added, customers listed. */
async function hundredRequests(mock: ReturnType<typeof setupMockApi>) {
  const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await client.campaigns.create({ ...CAMPAIGN, name: `c${i}` })).id);
  for (let i = 0; i < 40; i++) await client.campaigns.get(ids[i % ids.length] as string);
  for (let i = 0; i < 20; i++) await client.campaigns.list({ page: 1, limit: 10 });
  for (let i = 0; i < 20; i++) {
    await client.orders.add({
      company_id: mock.company.company_id,
      company_order_id: `ORD-${i}`,
      totalAmount: 10 + i,
      firstName: `C${i}`,
      phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
      postalCode: '94107',
      streetAddress1: '1 Market St',
    });
  }
  for (let i = 0; i < 10; i++) await client.customers.list({ page: 1, limit: 10 });
}

/** Heap one `setupMockApi()` retains after 100 requests (20 mocks kept alive, averaged), vs a 2 MB limit. */
export const mockInstanceHeap: Bench = {
  id: 'mock.instance.heap',
  async run() {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 10));
        gc();
      }
      return process.memoryUsage().heapUsed;
    };
    // A first mock loads and compiles what every mock shares (modules, schemas): not one instance's cost.
    const warm = setupMockApi({ seed: 1 });
    await hundredRequests(warm);
    await warm.close();
    const perMock: number[] = [];
    for (let round = 0; round < 3; round++) {
      const before = await settle();
      const kept = [];
      for (let i = 0; i < HEAP_MOCKS; i++) {
        const mock = setupMockApi({ seed: i + 1 });
        await hundredRequests(mock);
        kept.push(mock);
      }
      const after = await settle();
      perMock.push((after - before) / kept.length);
      for (const mock of kept) await mock.close();
    }
    const ours = Math.round(median(perMock) / 1024);
    return row({
      id: 'mock.instance.heap',
      metric: `heap retained by one setupMockApi() after 100 mixed requests through mock.fetch (${HEAP_MOCKS} mocks kept alive, after gc, median of 3 rounds), vs a 2 MB limit`,
      ours,
      peer: HEAP_LIMIT_BYTES / 1024,
      unit: 'KiB',
      better: 'lower',
      goal: atMost(1),
    });
  },
};

export const benches: Bench[] = [mockInstanceHeap];
