/** The HTTP mock's sessions: a suite's files on one process, each in a session of its own, against a process per file. */
import { atMost, type Bench, inTurns, row, turnsNote } from '../lib.ts';
import { freePort, spawnUntilHealthy, stopChild } from '../processes.ts';
import { MOCK_CLI } from './mock-common.ts';

/** Files in the suite, and how many run at once (a runner's workers on the two cores of the machine). */
const FILES = 10;
const AT_ONCE = 2;

/**
 * What one test file does with its mock, over HTTP: read the tokens, set a fault, add orders (one
 * refused by the fault), list campaigns, move the clock, read the journal, reset.
 */
async function oneFile(base: string, file: number): Promise<void> {
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const json = (await res.json()) as { data: unknown };
    return { status: res.status, data: json.data as never };
  };
  const { company } = (await call('GET', '/__mock')).data as { company: { uuid: string; company_id: string; token: string } };
  await call('POST', '/__mock/fail', { operationId: 'addOrder', status: 503 });
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const order = {
      company_id: company.company_id,
      company_order_id: `B${file}-${i}`,
      totalAmount: 10,
      firstName: 'Ada',
      phoneNumber: `+1415555${String(file).padStart(2, '0')}${String(i).padStart(2, '0')}`,
      postalCode: '94107',
      streetAddress1: '1 Market St',
    };
    statuses.push((await call('POST', '/api/order/addOrder', order, company.token)).status);
  }
  await call('GET', `/agency/getCampaignData?uuid=${company.uuid}`, undefined, company.token);
  await call('POST', '/__mock/clock', { advance: '1h' });
  const journal = (await call('GET', '/__mock/requests?operationId=addOrder')).data as unknown[];
  await call('POST', '/__mock/reset');
  if (statuses.join() !== '503,201,201' || journal.length !== 3) throw new Error(`file ${file}: answers ${statuses.join()}, ${journal.length} in the journal`);
}

/** Runs `FILES` files, `AT_ONCE` at a time, each given by `run`; the wall time in milliseconds. */
async function suite(run: (file: number) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < FILES) await run(next++);
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return performance.now() - t0;
}

/** A mock process (manual clock) until it answers; its URL and child. */
async function startMock() {
  const port = await freePort();
  const { child } = await spawnUntilHealthy(process.execPath, [MOCK_CLI, '--port', String(port), '--clock', 'manual'], port);
  return { url: `http://127.0.0.1:${port}`, child };
}

/**
 * A 10-file suite, two files at a time, each file's work over HTTP (a fault, three orders, a list, a
 * clock move, the journal, a reset): on one `engagekit-mock` with a session per file, its start and
 * stop counted, against a process of its own per file, started and stopped by the file. Wall time,
 * in turns, medians of 5.
 */
export const mockSessions: Bench = {
  id: 'mock.sessions.vs-processes',
  async run() {
    const withSessions = async () => {
      const t0 = performance.now();
      const mock = await startMock();
      try {
        await suite((file) => oneFile(`${mock.url}/__session/file-${file}`, file));
      } finally {
        await stopChild(mock.child);
      }
      return performance.now() - t0;
    };
    const processPerFile = () =>
      suite(async (file) => {
        const mock = await startMock();
        try {
          await oneFile(mock.url, file);
        } finally {
          await stopChild(mock.child);
        }
      });
    const r = await inTurns(5, { ours: withSessions, peer: processPerFile }, { warmUp: true });
    return row({
      id: 'mock.sessions.vs-processes',
      metric: `wall time of a ${FILES}-file suite, ${AT_ONCE} files at a time, each file's work over HTTP (a fault, 3 orders, a list, a clock move, the journal, a reset): one engagekit-mock with a session per file (its start and stop counted) vs a process per file`,
      note: `ms by round: sessions ${turnsNote(r.ours)}; a process per file ${turnsNote(r.peer)}`,
      ours: Math.round(r.ours.median),
      peer: Math.round(r.peer.median),
      unit: 'ms',
      better: 'lower',
      goal: atMost(0.5),
    });
  },
};

export const benches: Bench[] = [mockSessions];
