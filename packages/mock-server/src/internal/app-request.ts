/** The fields of a fetch init that a GetRequest takes; any other sends the call through a Request of the runtime. */
const GET_INIT = new Set(['method', 'headers', 'body', 'signal']);

/**
 * A GET that `mock.fetch` hands the app: its URL, method and headers made at once, as the app reads
 * them, and every other member from a Request of the runtime made from the same parts when first
 * needed. It never leaves the mock (the app answers it, the journal keeps its method, URL and headers);
 * the app reads it and never wraps it in a Request of the runtime, which would not take it.
 * Benchmark row `mock.inprocess.vs-prism`: a Request of the runtime, its URL parsed, its init converted
 * and checked, took a tenth of the CPU of an SDK call through `mock.fetch`.
 */
export class GetRequest implements Request {
  readonly url: string;
  readonly method = 'GET';
  readonly headers: Headers;
  #request: Request | undefined;

  /** `url` as `plainUrl` gives it. */
  constructor(url: string, headers: HeadersInit | undefined) {
    this.url = url;
    this.headers = new Headers(headers);
  }

  #runtime(): Request {
    this.#request ??= new Request(this.url, { headers: this.headers });
    return this.#request;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return null;
  }
  get bodyUsed(): boolean {
    return false;
  }
  get cache(): RequestCache {
    return this.#runtime().cache;
  }
  get credentials(): RequestCredentials {
    return this.#runtime().credentials;
  }
  get destination(): RequestDestination {
    return this.#runtime().destination;
  }
  get integrity(): string {
    return this.#runtime().integrity;
  }
  get keepalive(): boolean {
    return this.#runtime().keepalive;
  }
  get mode(): RequestMode {
    return this.#runtime().mode;
  }
  get redirect(): RequestRedirect {
    return this.#runtime().redirect;
  }
  get referrer(): string {
    return this.#runtime().referrer;
  }
  get referrerPolicy(): ReferrerPolicy {
    return this.#runtime().referrerPolicy;
  }
  get signal(): AbortSignal {
    return this.#runtime().signal;
  }
  // Node's Request has these beside the DOM's (its inspection reads them).
  get duplex(): unknown {
    return (this.#runtime() as unknown as { duplex?: unknown }).duplex;
  }
  get isReloadNavigation(): unknown {
    return (this.#runtime() as unknown as { isReloadNavigation?: unknown }).isReloadNavigation;
  }
  get isHistoryNavigation(): unknown {
    return (this.#runtime() as unknown as { isHistoryNavigation?: unknown }).isHistoryNavigation;
  }
  clone(): Request {
    return this.#runtime().clone();
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#runtime().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.#runtime().blob();
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#runtime().bytes();
  }
  formData(): Promise<FormData> {
    return this.#runtime().formData();
  }
  // biome-ignore lint/suspicious/noExplicitAny: as Request's own json().
  json(): Promise<any> {
    return this.#runtime().json();
  }
  text(): Promise<string> {
    return this.#runtime().text();
  }
}

// `instanceof Request` holds; every member of Node's Request is one of the class's own.
Object.setPrototypeOf(GetRequest.prototype, Request.prototype);

/**
 * The Request `mock.fetch` hands the app for a call it answers at once (the caller's signal left out;
 * the answer follows it instead): a GetRequest for a GET of a URL given as a string, with no body and
 * no other init than headers, else a Request of the runtime.
 */
export function appRequest(input: string | URL | Request, init: RequestInit): Request {
  const url = typeof input === 'string' && isPlainGet(init) ? plainUrl(input) : undefined;
  return url === undefined ? new Request(input, { ...init, signal: null }) : new GetRequest(url, init.headers);
}

function isPlainGet(init: RequestInit): boolean {
  if (!(init.method === undefined || init.method === 'GET') || init.body != null) return false;
  for (const key in init) if (!GET_INIT.has(key)) return false;
  return true;
}

/**
 * `input` parsed and serialized, as a Request of the runtime gives its URL; undefined for what is not a
 * URL or holds credentials, which that Request refuses in its own words.
 */
function plainUrl(input: string): string | undefined {
  try {
    const url = new URL(input);
    return url.username === '' && url.password === '' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
