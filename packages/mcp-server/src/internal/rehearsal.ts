/**
 * The rehearsal room: one in-process engagekit mock (`@engagekit/mock-server`, an optional peer) on a
 * manual clock, made at the first rehearsal and kept as long as the server, so state built by one run is
 * there for the next. Its sample data is loaded at start and again on every reset. It holds the live
 * company (its uuid and company_id) when the server has a live API, so code that runs in a rehearsal
 * runs live too; and it records webhooks rather than send them: nothing a rehearsal does leaves the process.
 */
import type { MockApi } from '@engagekit/mock-server';
import type { BridgeTarget } from './bridge.ts';
import { crossing } from './crossing.ts';
import type { RecordedWebhook } from './report.ts';
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
  /** The company the mock holds (the live API's own, read at start); the mock's demo company when it resolves to undefined. */
  company?: () => Promise<{ uuid: string; company_id: string; name?: string; timezone?: string } | undefined>;
}

/** The most recorded webhooks `mock.webhooks()` answers with: the newest. */
const WEBHOOKS_SHOWN = 50;

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
    const company = await this.#options.company?.();
    let mock: MockApi;
    try {
      mock = createMockApi({
        clock: 'manual',
        // A rehearsal's webhooks are signed and recorded, never sent: not to a registered URL, not to the metadata address.
        webhookDelivery: 'record',
        ...(company ? { company } : {}),
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

  /** How many webhooks the mock has recorded so far: a run's own are those past this mark. */
  async webhookMark(): Promise<number> {
    return (await this.mock()).webhooks.length;
  }

  /** The webhooks recorded since `mark` (a reset starts the count again). */
  async webhooksSince(mark: number): Promise<RecordedWebhook[]> {
    const all = (await this.mock()).webhooks;
    return all.slice(mark <= all.length ? mark : 0).map(recorded);
  }

  /** The `mock` host function of one run: the clock's `now`, `set` and `advance`, each move logged, and `webhooks`. */
  async mockBridge(log: RunLog): Promise<HostFunction> {
    const mock = await this.mock();
    const { clock } = mock;
    const answer = (value: unknown) => JSON.stringify({ value });
    return (json) => {
      const [op, arg] = JSON.parse(json) as [string, unknown];
      const fail = (e: unknown) => {
        const error = crossing(e, `mock.clock.${op}`);
        log.begin({ operation: `mock.clock.${op}` }).done({ error: `${error.name}: ${error.message}` });
        return JSON.stringify({ error });
      };
      if (op === 'now') return answer(clock.now().toISOString());
      if (op === 'webhooks') return answer(mock.webhooks.slice(-WEBHOOKS_SHOWN).map(recorded));
      if (op === 'set') {
        try {
          clock.set(arg as string | number);
        } catch (e) {
          return fail(e);
        }
        log.begin({ operation: 'mock.clock.set' }).done({ note: `now ${clock.now().toISOString()}` });
        return answer(null);
      }
      if (op === 'advance') {
        const move = log.begin({ operation: 'mock.clock.advance' });
        return clock.advance(arg as string | number).then(
          () => {
            move.done({ note: `by ${JSON.stringify(arg)}, now ${clock.now().toISOString()}` });
            return answer(null);
          },
          (e: unknown) => {
            const error = crossing(e, 'mock.clock.advance');
            move.done({ error: `${error.name}: ${error.message}` });
            return JSON.stringify({ error });
          },
        );
      }
      return fail(new TypeError(`mock.clock.${op} is not a clock method: now, set and advance are.`));
    };
  }

  /** The mock's company, as the rehearsal's mock holds it. */
  async heldCompany(): Promise<{ uuid: string; company_id: string }> {
    const { company } = await this.mock();
    return { uuid: company.uuid, company_id: company.company_id };
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

/** What a report shows of one recorded webhook. */
function recorded(webhook: { url: string; event: { id: string; type: string } }): RecordedWebhook {
  return { url: webhook.url, type: webhook.event.type, eventId: webhook.event.id };
}
