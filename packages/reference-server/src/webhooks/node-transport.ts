import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { EXCERPT_BYTES, resolvedAddressProblem, urlHostProblem, type WebhookAnswer, WebhookTargetError, type WebhookTransport } from '@engagekit/runtime';

/** Options of the Node transport. */
export interface NodeTransportOptions {
  /** Connections kept to one receiver (host and port) at most; match the dispatcher's concurrency. Default 64. */
  maxSockets?: number;
  /**
   * Connect to loopback and private addresses too (`WEBHOOK_ALLOW_PRIVATE=1`). Default false: every
   * address a connection goes to is checked in the connection's own DNS lookup, so a name that
   * answers a public address to one lookup and a private one to the next (DNS rebinding) is refused.
   */
  allowPrivate?: boolean;
  /** Resolves a host name to every address it has, as `dns.lookup(host, { all: true })` does (the default). */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

/** The most of an answer's body read (to keep its connection for the next POST); a longer body closes the connection. */
const DRAIN_BYTES = 64 * 1024;

/** A receiver's URL as node:http takes it: its request options and its Host header, or why it may not be sent to. */
interface Target {
  secure: boolean;
  options: RequestOptions;
  host: string;
  problem: string | null;
}

/** The most receivers' URLs the transport keeps parsed; past that it starts again. */
const TARGETS_KEPT = 1000;

/** The Node transport, with `close()` to end its kept-alive connections. */
type NodeTransport = WebhookTransport & { close(): void };

/**
 * The webhook transport of the server on Node: node:http(s) with kept-alive connections per receiver.
 *
 * Fast path for the webhooks.delivery.rate row: a POST through node:http costs a fraction of one
 * through fetch (no Request, Headers or web streams per attempt, less garbage), which is most of
 * the dispatcher's own CPU time when receivers answer at once. The mock, which may run in a browser,
 * keeps `fetchTransport`.
 *
 * @example
 * const dispatcher = createDispatcher({ store, transport: createNodeTransport({ maxSockets: 64 }) });
 */
export function createNodeTransport(options: NodeTransportOptions = {}): NodeTransport {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64, scheduling: 'lifo' as const };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  const allowPrivate = options.allowPrivate ?? false;
  // node:net calls `lookup` for a host name only; an IP literal is checked with its URL (`target`).
  const lookup = allowPrivate && !options.resolve ? undefined : checkedLookup(options.resolve ?? systemResolve, allowPrivate);

  const targets = new Map<string, Target>();
  /** `url` parsed once for all the POSTs to it. */
  function target(url: string): Target {
    let t = targets.get(url);
    if (!t) {
      const parsed = new URL(url);
      if (targets.size >= TARGETS_KEPT) targets.clear();
      const problem = allowPrivate ? null : urlHostProblem(parsed);
      t = { secure: parsed.protocol === 'https:', options: { ...urlToHttpOptions(parsed), ...(lookup ? { lookup } : {}) }, host: parsed.host, problem };
      targets.set(url, t);
    }
    return t;
  }

  function post({ url, headers, body, timeoutMs }: Parameters<WebhookTransport>[0], retried = false): Promise<WebhookAnswer> {
    return new Promise((resolve, reject) => {
      const { secure, options, host, problem } = target(url);
      if (problem) return reject(new WebhookTargetError(problem));
      const req = (secure ? httpsRequest : httpRequest)(
        { ...options, method: 'POST', agent: secure ? https : http, headers: headerList(host, headers, Buffer.byteLength(body)) },
        (res) => readAnswer(res, resolve),
      );
      const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' })), timeoutMs);
      req.once('close', () => clearTimeout(timer));
      req.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // A kept-alive connection the receiver closed as this POST went out: send it once more on a new one (Node's advice).
        if (!retried && req.reusedSocket && error.code === 'ECONNRESET') resolve(post({ url, headers, body, timeoutMs }, true));
        else reject(error);
      });
      req.end(body);
    });
  }

  return Object.assign(post, {
    checksAddresses: !allowPrivate,
    close() {
      http.destroy();
      https.destroy();
    },
  });
}

const systemResolve = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/**
 * A `lookup` for node:net that resolves a host name once and hands the connection only addresses it
 * has checked: unless `allowPrivate`, every address the name resolves to must be global unicast, or
 * the connection fails with a WebhookTargetError and nothing is sent. Answers as `dns.lookup` does,
 * a list when `options.all` asks for one (Node's default happy-eyeballs connect does).
 */
function checkedLookup(resolve: (host: string) => Promise<LookupAddress[]>, allowPrivate = false): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        if (!allowPrivate) {
          for (const { address } of found) {
            const problem = resolvedAddressProblem(hostname, address);
            if (problem) return callback(new WebhookTargetError(problem) as NodeJS.ErrnoException, '', 0);
          }
        }
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * A POST's headers as the flat list node:http also takes: Host and Content-Length first, then `headers`
 * (any Host or Content-Length among them left out). Given a list, node:http builds the request head
 * from it at once; given an object, it first sets each header on the request one by one, then looks
 * Host, Authorization and Expect up among them. Fast path for the webhooks.delivery.rate row, with the
 * URL parsed once (`target`). node:http adds no Authorization from a URL's credentials to a list; the
 * dispatcher refuses URLs that carry any.
 */
export function headerList(host: string, headers: Record<string, string>, contentLength: number): string[] {
  const list = ['host', host, 'content-length', String(contentLength)];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== 'host' && lower !== 'content-length') list.push(name, value);
  }
  return list;
}

/** Reads the status, Retry-After and the excerpt of an answer; drains a short body so its connection is reused. */
function readAnswer(res: IncomingMessage, resolve: (answer: WebhookAnswer) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    if (size < EXCERPT_BYTES) chunks.push(chunk);
    size += chunk.byteLength;
    if (size > DRAIN_BYTES) res.destroy();
  });
  // 'close' comes after 'end', and also when the body is cut short (the excerpt is what came).
  res.once('close', () => {
    const retryAfter = res.headers['retry-after'];
    resolve({
      status: res.statusCode ?? 0,
      retryAfter: retryAfter ?? null,
      // Buffer's decoder, not a new TextDecoder per answer (which costs more than the rest of reading it); both replace a cut character.
      excerpt: Buffer.concat(chunks).toString('utf8', 0, EXCERPT_BYTES),
    });
  });
}
