/**
 * `--transport http`: the MCP Streamable HTTP transport on node:http, at `/mcp`, a session per client
 * (each with its own MCP server over the one engine, so the rehearsal mock is shared). On a loopback
 * address only loopback Host and Origin headers are accepted, so a web page cannot reach the server
 * through DNS rebinding.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { EngageMcpServer } from './server.ts';

/** The largest request body read, in bytes (execute's code is at most 100,000 characters). */
const BODY_LIMIT_BYTES = 4 * 2 ** 20;

/** A running HTTP transport. */
export interface HttpServing {
  /** `http://HOST:PORT/mcp` */
  url: string;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Serves `engage` over Streamable HTTP on `host:port` (port 0 picks a free one).
 *
 * @example const { url } = await serveHttp(engage, { host: '127.0.0.1', port: 3100 }); // http://127.0.0.1:3100/mcp
 */
export async function serveHttp(engage: EngageMcpServer, options: { host: string; port: number }): Promise<HttpServing> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port;
  const loopbackOnly = LOOPBACK.has(options.host);

  const reply = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/mcp') return reply(res, 404, 'Not found: the MCP endpoint is /mcp.');
      if (loopbackOnly && !fromLoopback(req, port)) return reply(res, 403, 'Forbidden: this server answers only requests addressed to its loopback address.');
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (typeof sessionId === 'string' && !known) return reply(res, 404, 'Session not found: start a new one with an initialize request.');
      if (known) {
        const body = req.method === 'POST' ? await readJson(req) : undefined;
        return await known.handleRequest(req, res, body);
      }
      if (req.method !== 'POST') return reply(res, 400, 'Bad request: no session. Start one with an initialize request (POST).');
      const body = await readJson(req);
      if (!isInitializeRequest(body)) return reply(res, 400, 'Bad request: no session. Start one with an initialize request.');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await engage.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (e instanceof BodyError) return reply(res, e.status, e.message);
      if (!res.headersSent) reply(res, 500, 'Internal error.');
      process.stderr.write(`engagekit-mcp: ${(e as Error).stack ?? String(e)}\n`);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      sessions.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

/** Whether the Host header (and the Origin header, when a browser sent one) name a loopback address. */
function fromLoopback(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host ?? '';
  const allowedHosts = [...LOOPBACK].map((h) => `${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}`);
  if (!allowedHosts.includes(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** A request body that cannot be read as JSON. */
class BodyError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new BodyError(413, `Payload too large: at most ${BODY_LIMIT_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'Parse error: the body is not JSON.');
  }
}
