import { type Respond, webResponse } from '@engagekit/runtime';

/**
 * The in-process mock's answers (`mock.fetch`, `mock.handle`): a Response that keeps its JSON body as
 * the text it was made from. The first `text()` or `json()` takes that text, without the stream, the
 * chunk and its decoding that a Response of the runtime goes through on the way; the headers, `body`,
 * `clone()` and the other readers use a Response of the runtime made from the same parts when first
 * needed (its body already read if the text was taken), so it reads as any Response does. Benchmark
 * row `mock.inprocess.vs-prism`: an SDK call through `mock.fetch` took 21.2 to 22.7 µs of CPU before,
 * 14.9 to 15.9 with it.
 */
export class TextResponse implements Response {
  readonly #text: string;
  readonly #status: number;
  readonly #headers: Record<string, string>;
  /** Whether `text()` or `json()` took the text. */
  #taken = false;
  /** The runtime's Response with the same parts, once something needed it. */
  #response: Response | undefined;

  constructor(text: string, status: number, headers: Record<string, string>) {
    followGlobalResponse();
    this.#text = text;
    this.#status = status;
    this.#headers = headers;
  }

  /**
   * `response` as a Response of the runtime, for the mock's HTTP mode: @hono/node-server writes its own
   * Responses to the socket as they are, and reads any other through its body stream.
   */
  static toRuntime(response: Response): Response {
    return response instanceof TextResponse ? response.#runtime() : response;
  }

  #runtime(): Response {
    if (this.#response === undefined) {
      // As the app makes an answer's Response when it is given no `respond`.
      this.#response = webResponse(this.#text, this.#status, this.#headers);
      // The text was taken: this body reads as used, as a Response's does once read.
      if (this.#taken) void this.#response.text();
    }
    return this.#response;
  }

  /** True for the first reader of the body, when nothing has asked for it otherwise; it then takes the text. */
  #takeText(): boolean {
    if (this.#taken || this.#response !== undefined) return false;
    this.#taken = true;
    return true;
  }

  get status(): number {
    return this.#status;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  // What a Response made by its constructor says, without making one.
  get statusText(): string {
    return '';
  }
  get type(): ResponseType {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  get headers(): Headers {
    return this.#runtime().headers;
  }
  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#runtime().body;
  }
  get bodyUsed(): boolean {
    return this.#response === undefined ? this.#taken : this.#response.bodyUsed;
  }
  text(): Promise<string> {
    return this.#takeText() ? Promise.resolve(this.#text) : this.#runtime().text();
  }
  // biome-ignore lint/suspicious/noExplicitAny: as Response's own json().
  json(): Promise<any> {
    if (!this.#takeText()) return this.#runtime().json();
    try {
      return Promise.resolve(JSON.parse(this.#text));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#runtime().arrayBuffer();
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#runtime().bytes();
  }
  blob(): Promise<Blob> {
    return this.#runtime().blob();
  }
  formData(): Promise<FormData> {
    return this.#runtime().formData();
  }
  clone(): Response {
    return this.#runtime().clone();
  }
}

/**
 * Makes `instanceof Response` hold for a TextResponse under the Response the global scope holds now:
 * @hono/node-server puts a Response of its own there when it starts serving, and a test may run such a
 * server and the mock in one process. Every member of Response is one of TextResponse's own, so no
 * member of the Response its prototype leads to is called on it.
 */
function followGlobalResponse(): void {
  if (Object.getPrototypeOf(TextResponse.prototype) !== Response.prototype) Object.setPrototypeOf(TextResponse.prototype, Response.prototype);
}

/** The in-process mock's `AppDeps.respond`. */
export const textResponse: Respond = (text, status, headers) => new TextResponse(text, status, headers);
