import { canonicalUuid, copy } from '@engagekit/runtime';
import { timeOf } from './time-input.ts';

/** A request the code under test sent to the mock, and what the mock answered. */
export interface MockRequest {
  method: string;
  /** The path the API saw (without a base URL's path prefix). */
  path: string;
  /** The contract's operation, or null when the request named none (answered 404 or 405). */
  operationId: string | null;
  query: Record<string, string>;
  /** The JSON body as sent; undefined when the operation takes none or it was not JSON. */
  body: unknown;
  /** The request's headers, names in lower case, with the bearer token redacted. */
  headers: Record<string, string>;
  /** The status answered; null when no answer was sent (`ended` says why). */
  status: number | null;
  /**
   * How it ended: `answered`; `dropped`, the connection dropped by a `network` fault; `aborted`, the
   * client gave up (its signal aborted, or it hung up) while a fault's `delayMs` held the answer back.
   */
  ended: RequestEnd;
  /**
   * The company it acted for: the one an agency or admin call names, else its token's company (an
   * order call's); null when neither is known (a public call, a token refused before its company was read).
   */
  companyUuid: string | null;
  /** When it arrived, on the mock's clock (ISO-8601). */
  at: string;
}

/** How a request to the mock ended: answered, dropped by a `network` fault, or aborted by its client. */
export type RequestEnd = 'answered' | 'dropped' | 'aborted';

/**
 * A request's headers as the journal takes them: its Headers, or the raw header lines it came with
 * over HTTP (name, value, name, value, ...), when the HTTP mode noted them (`noteRawHeaders`).
 */
type HeaderSource = Headers | readonly string[];

/** A request as the mock hands it to the journal. */
interface Entry {
  method: string;
  url: string;
  /** `headersOf(request)`. */
  headers: HeaderSource;
  operationId: string | null;
  body: unknown;
  status: number | null;
  ended: RequestEnd;
  companyUuid: string | null;
  at: Date;
}

/** What the journal keeps of a request until it is read: plain values, nothing parsed. */
interface Kept {
  method: string;
  url: string;
  /** Names in lower case, as a Headers gives them; or the raw header lines, read into such names when the journal is read. */
  headers: Record<string, string> | readonly string[];
  operationId: string | null;
  body: unknown;
  status: number | null;
  ended: RequestEnd;
  companyUuid: string | null;
  /** Milliseconds since the epoch, on the mock's clock. */
  at: number;
}

/**
 * An entry as the journal keeps it: its headers as a plain record, its time as a number. The journal
 * holds the newest 1,000 requests by default, so what it keeps outlives the collector's young
 * generation: a Headers kept that long (its list, map and entries) costs the collector CPU on every
 * call (benchmark rows mock.inprocess.vs-prism and mock.http.vs-node-http).
 */
function kept(entry: Entry): Kept {
  const source = entry.headers;
  return { ...entry, headers: Array.isArray(source) ? source : namesAndValues(source as Headers), at: entry.at.getTime() };
}

/** A Headers as a plain record: names in lower case, the values of a repeated name joined, as the Headers gives them. */
function namesAndValues(source: Headers): Record<string, string> {
  const headers: Record<string, string> = {};
  source.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/**
 * Raw header lines as a plain record, through a Headers made of them as @hono/node-server makes one
 * of a request's `rawHeaders` (HTTP/2 pseudo-headers left out): the very record `namesAndValues` gives
 * of that request's own Headers.
 */
function namesAndValuesOfRaw(raw: readonly string[]): Record<string, string> {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!name.startsWith(':')) headers.append(name, raw[i + 1] as string);
  }
  return namesAndValues(headers);
}

/** The raw header lines of the requests the HTTP mode noted (`noteRawHeaders`). */
const rawHeaders = new WeakMap<Request, readonly string[]>();

/**
 * Notes the raw header lines `request` came with over HTTP (node:http's `rawHeaders`), which its
 * journal entry then keeps as they are, to be read into names and values only if the journal is read.
 * A request served by @hono/node-server answers `headers.get()` from its message without making a
 * Headers; reading every header, as the entry did, made one for each request (benchmark row
 * mock.http.cpu.vs-node-http). The entry reads the same names and values.
 */
export function noteRawHeaders(request: Request, raw: readonly string[]): void {
  rawHeaders.set(request, raw.slice());
}

/** A request's headers for its journal entry: the raw lines noted for it, else its Headers. */
export function headersOf(request: Request): HeaderSource {
  return rawHeaders.get(request) ?? request.headers;
}

/** The filter of `requests()`. */
export interface RequestFilter {
  /** Only requests for this operation. */
  operationId?: string;
  /** Only requests that arrived at or after this time (on the mock's clock): a Date, epoch milliseconds or an RFC 3339 date-time. */
  since?: Date | string | number;
  /** Only requests for this company (`companyUuid`, compared in any case). */
  uuid?: string;
}

const redact = (name: string, value: string) => (name === 'authorization' ? value.replace(/^(\w+)\s+.*$/, '$1 [redacted]') : value);

/**
 * The request journal: the newest `limit` requests the mock answered (0 keeps none), for assertions
 * such as "addOrder was called once, with this company_order_id", with no spy.
 */
export function createJournal(limit: number) {
  let entries: Kept[] = [];

  return {
    record(entry: Entry): void {
      if (limit <= 0) return;
      entries.push(kept(entry));
      // Trim in batches, so a full journal costs one splice per `limit` requests.
      if (entries.length >= 2 * limit) entries = entries.slice(-limit);
    },
    /** The requests kept, oldest first, that pass `filter`. */
    list(filter: RequestFilter = {}): MockRequest[] {
      const since = filter.since === undefined ? undefined : timeOf(filter.since, 'requests(): since ', 'since');
      const uuid = filter.uuid === undefined ? undefined : canonicalUuid(filter.uuid);
      return entries
        .slice(-limit)
        .filter(
          (e) =>
            (filter.operationId === undefined || e.operationId === filter.operationId) &&
            (since === undefined || e.at >= since) &&
            (uuid === undefined || e.companyUuid === uuid),
        )
        .map((e) => {
          const url = new URL(e.url);
          const headers: Record<string, string> = {};
          const given = Array.isArray(e.headers) ? namesAndValuesOfRaw(e.headers) : (e.headers as Record<string, string>);
          for (const [name, value] of Object.entries(given)) headers[name] = redact(name, value);
          return {
            method: e.method,
            path: url.pathname,
            operationId: e.operationId,
            query: Object.fromEntries(url.searchParams),
            // Copied by `copy`, not structuredClone, so it is made in the caller's realm (Jest's, say).
            body: copy(e.body),
            headers,
            status: e.status,
            ended: e.ended,
            companyUuid: e.companyUuid,
            at: new Date(e.at).toISOString(),
          };
        });
    },
    clear(): void {
      entries = [];
    },
  };
}

export type Journal = ReturnType<typeof createJournal>;
