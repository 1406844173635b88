/**
 * The low-level clients (`client.api.agency`, `client.api.orders`, `admin.api`) as stand-ins that load
 * their openapi-fetch client on first use: most apps only call the resource methods, so the main entry
 * does not carry openapi-fetch (the sdk.size benchmark row holds the main entry to its budget).
 */
import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '../generated/paths.ts';

/** A low-level openapi-fetch client of the contract's paths. */
export type LowLevelClient = Client<paths, 'application/json'>;

/** The methods that send a request; each resolves as openapi-fetch's own does. */
const CALLS = ['request', 'GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/**
 * A `LowLevelClient` whose requests wait for `load` (called once, on the first request; again after a
 * failed load). Middleware given to `use` or `eject` before it is loaded is applied to it, in order, when
 * it is: openapi-fetch's check of a middleware's shape then fails the first request instead of `use`.
 */
export function lazyClient(load: () => Promise<LowLevelClient>): LowLevelClient {
  let loaded: LowLevelClient | undefined;
  let loading: Promise<LowLevelClient> | undefined;
  const queued: ((c: LowLevelClient) => void)[] = [];
  const client = () =>
    (loading ??= load().then(
      (c) => {
        for (const apply of queued.splice(0)) apply(c);
        loaded = c;
        return c;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const configure = (apply: (c: LowLevelClient) => void) => {
    if (loaded) apply(loaded);
    else queued.push(apply);
  };
  const lazy: Record<string, unknown> = {
    use: (...middleware: Middleware[]) => configure((c) => c.use(...middleware)),
    eject: (...middleware: Middleware[]) => configure((c) => c.eject(...middleware)),
  };
  for (const name of CALLS) lazy[name] = (...args: unknown[]) => client().then((c) => (c[name] as (...a: unknown[]) => unknown)(...args));
  return lazy as unknown as LowLevelClient;
}
