/** The promise every resource method returns: it resolves to the data, and `.withResponse()` gives the rest. */

/** A result with the HTTP answer it came from. */
export interface WithResponse<T> {
  /** What the method resolves to. */
  data: T;
  /** The HTTP answer (its body already read). */
  response: Response;
  /** `response.status`, e.g. 201 for a created order, 200 for an updated one. */
  status: number;
  /** `response.headers`. */
  headers: Headers;
  /** The `x-request-id` header: quote it to support. */
  requestId: string | undefined;
}

/** What the request layer hands an APIPromise. */
export interface RawResult<T> {
  data: T;
  response: Response;
}

/** Adds status, headers and requestId to a raw result. */
export function withResponse<T>({ data, response }: RawResult<T>): WithResponse<T> {
  return { data, response, status: response.status, headers: response.headers, requestId: response.headers.get('x-request-id') ?? undefined };
}

/**
 * A promise of the unwrapped `data` of an answer. The request is sent at once, as with any promise.
 *
 * @example
 * const campaign = await client.campaigns.create(body);
 * const { data, status, requestId } = await client.campaigns.create(body).withResponse();
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #raw: Promise<RawResult<T>>;

  constructor(raw: Promise<RawResult<T>>) {
    this.#raw = raw;
  }

  /** The data with the HTTP status, headers and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw.then(withResponse);
  }

  /** Like `Promise.prototype.then`, on the unwrapped data. */
  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a thenable on purpose, so `await` works.
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#raw.then(onfulfilled ? (r) => onfulfilled(r.data) : (r) => r.data as unknown as A, onrejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
