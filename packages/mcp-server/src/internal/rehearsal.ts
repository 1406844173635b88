/**
 * The rehearsal room: one in-process engagekit mock (`@engagekit/mock-server`, an optional peer) on a
 * manual clock, made at the first rehearsal and kept as long as the server, so state built by one run is
 * there for the next. Its sample data is loaded at start and again on every reset.
 */
import type { MockApi } from '@engagekit/mock-server';
import type { BridgeTarget } from './bridge.ts';
import { crossing } from './bridge.ts';
import type { RunLog } from './run-log.ts';
import type { HostFunction } from './sandbox.ts';

/** A rehearsal cannot run: the mock package is missing, or its sample data does not load. The message says what to do. */
export class RehearsalUnavailableError extends Error {
  override readonly name = 'RehearsalUnavailableError';
}

/** What to tell a person whose install has no mock. */
function mockMissingMessage(version: string): string {
  const range = version === '0.0.0' ? '' : `@${version}`;
  return `Rehearsals (--target mock, dry_run: true, --data) run against @engagekit/mock-server, an optional peer dependency of @engagekit/mcp-server, and it is not installed.
Install it beside the server:  npm install @engagekit/mock-server${range}
Or, with npx:  npx -y -p @engagekit/mcp-server${range} -p @engagekit/mock-server${range} engagekit-mcp --target mock`;
}

/** How the mock is made. */
interface RehearsalOptions {
  /** Sample data in the mock's fixture format (`{ templates, customers, orders, campaigns }`), loaded at start and on every reset. */
  data?: object;
  /** Makes the mock's generated ids the same run after run. */
  seed?: number | string;
  /** Where sample data came from, for messages (`--data fixtures.json`). */
  dataSource?: string;
  /** This package's version, for the install hint. */
  version: string;
}

/** The mock a server's rehearsals share. */
export class Rehearsal {
  readonly #options: RehearsalOptions;
  #mock: Promise<MockApi> | undefined;

  constructor(options: RehearsalOptions) {
    this.#options = options;
  }

  /** The mock, made and loaded on first use. Rejects with `RehearsalUnavailableError` when it cannot be had. */
  mock(): Promise<MockApi> {
    if (!this.#mock) {
      const making = this.#make();
      this.#mock = making;
      making.catch(() => {
        if (this.#mock === making) this.#mock = undefined;
      });
    }
    return this.#mock;
  }

  async #make(): Promise<MockApi> {
    let createMockApi: typeof import('@engagekit/mock-server').createMockApi;
    try {
      ({ createMockApi } = await import('@engagekit/mock-server'));
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new RehearsalUnavailableError(mockMissingMessage(this.#options.version));
      throw e;
    }
    const where = this.#options.dataSource ?? 'mockData';
    let mock: MockApi;
    try {
      mock = createMockApi({
        clock: 'manual',
        ...(this.#options.data ? { data: this.#options.data } : {}),
        ...(this.#options.seed !== undefined ? { seed: this.#options.seed } : {}),
      });
    } catch (e) {
      if ((e as Error)?.name === 'MockDataError') throw new RehearsalUnavailableError(`${where} ${(e as Error).message.replace(/^The data option /, '')}`);
      throw e;
    }
    try {
      await mock.ready;
    } catch (e) {
      await mock.close();
      throw new RehearsalUnavailableError(`${where} did not load: ${(e as Error).message}`);
    }
    return mock;
  }

  /** Starts the mock afresh: no records but the sample data, the clock back at its start. */
  async reset(): Promise<void> {
    const mock = await this.mock();
    await mock.reset();
  }

  /** What a run's client reaches: the mock's company, through its fetch (no network, no interception). */
  async target(): Promise<BridgeTarget> {
    const mock = await this.mock();
    return {
      clientOptions: { baseUrl: mock.baseUrl, orderBaseUrl: mock.orderBaseUrl, token: mock.company.token, uuid: mock.company.uuid },
      fetch: (url, init) => mock.fetch(url, init),
    };
  }

  /** The mock's company, for the tool's description. */
  async company(): Promise<{ uuid: string; company_id: string }> {
    const { company } = await this.mock();
    return { uuid: company.uuid, company_id: company.company_id };
  }

  /** The `clock` host function of one run: `now`, `set` and `advance`, each move logged. */
  async clockBridge(log: RunLog): Promise<HostFunction> {
    const { clock } = await this.mock();
    const answer = (value: unknown) => JSON.stringify({ value });
    return (json) => {
      const [op, arg] = JSON.parse(json) as [string, unknown];
      const started = performance.now();
      const fail = (e: unknown) => {
        const error = crossing(e, `mock.clock.${op}`);
        log.calls.push({ operation: `mock.clock.${op}`, ms: 0, error: `${error.name}: ${error.message}` });
        return JSON.stringify({ error });
      };
      if (op === 'now') return answer(clock.now().toISOString());
      if (op === 'set') {
        try {
          clock.set(arg as string | number);
        } catch (e) {
          return fail(e);
        }
        log.calls.push({ operation: 'mock.clock.set', ms: 0, note: `now ${clock.now().toISOString()}` });
        return answer(null);
      }
      if (op === 'advance') {
        return clock.advance(arg as string | number).then(
          () => {
            const ms = Math.round((performance.now() - started) * 10) / 10;
            log.calls.push({ operation: 'mock.clock.advance', ms, note: `by ${JSON.stringify(arg)}, now ${clock.now().toISOString()}` });
            return answer(null);
          },
          (e: unknown) => fail(e),
        );
      }
      return fail(new TypeError(`mock.clock.${op} is not a clock method: now, set and advance are.`));
    };
  }

  /** The mock's time now, or undefined when no rehearsal has run. */
  async now(): Promise<string | undefined> {
    if (!this.#mock) return undefined;
    return (await this.#mock).clock.now().toISOString();
  }

  /** Stops the mock (its scheduler and webhook dispatcher). */
  async close(): Promise<void> {
    const mock = this.#mock;
    this.#mock = undefined;
    if (mock) await (await mock.catch(() => undefined))?.close();
  }
}
