/** What `createClient` and `createAdminClient` share: their option checks, the request plumbing and the low-level clients. */
import { EngageError } from '../errors.ts';
import { type LowLevelClient, lazyClient } from './lazy-client.ts';
import { createLog, type Logger, type LogLevel } from './log.ts';
import { checkLimits, createRequester, type Requester, type ResponseValidator } from './request.ts';
import type { FetchLike } from './transport.ts';

/** The options both clients take. */
export interface TransportOptions {
  baseUrl: string;
  fetch?: FetchLike | undefined;
  maxRetries?: number | undefined;
  timeout?: number | undefined;
  headers?: Record<string, string> | undefined;
  validateResponse?: ResponseValidator | undefined;
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
}

/** Throws an `EngageError` naming `where` unless `ok`. */
export function check(where: string, ok: boolean, message: string): void {
  if (!ok) throw new EngageError(`${where}: ${message}`);
}

/** Whether `url` is an absolute http(s) URL. */
export function isAbsoluteUrl(url: unknown): boolean {
  try {
    return typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Checks the shared options and builds the plumbing: every request carries `Authorization: Bearer <token>`.
 * `orderBaseUrl` is where order calls go.
 */
export function createTransport(
  where: string,
  options: TransportOptions,
  token: string,
  orderBaseUrl: string,
): { requester: Requester; lowLevel: (baseUrl: string) => LowLevelClient } {
  check(
    where,
    isAbsoluteUrl(options.baseUrl),
    `baseUrl must be an absolute http(s) URL such as https://api.example.com (got ${JSON.stringify(options.baseUrl)})`,
  );
  check(where, options.fetch === undefined || typeof options.fetch === 'function', 'fetch must be a function called as fetch(url, init)');
  checkLimits(where, options);
  const headers = { ...options.headers, authorization: `Bearer ${token}` };
  const requester = createRequester({
    baseUrl: options.baseUrl,
    orderBaseUrl,
    headers,
    fetch: options.fetch,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeout ?? 60_000,
    validateResponse: options.validateResponse,
    log: createLog(options.logLevel, options.logger),
  });
  // Loaded on first use, so the main entry does not carry openapi-fetch.
  const lowLevel = (baseUrl: string) => lazyClient(async () => (await import('./low-level.ts')).createLowLevelClient(baseUrl, headers, requester));
  return { requester, lowLevel };
}
