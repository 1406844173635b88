/**
 * What stands in front of Prism on the port asked for: every request goes on to Prism unchanged,
 * except those for sessions (`/__session/{name}/...`, `/__sessions`), which the prism engine does not
 * have: they are refused with a 404 that says so, rather than answered with one of the document's examples.
 */
import { serve } from '@hono/node-server';
import { getPath } from 'hono/utils/url';

/** Why a session prefix gets nothing from the prism engine, and what to run instead. */
export const PRISM_NO_SESSIONS =
  'The prism engine (--engine prism) has no sessions: it serves openapi.yaml’s examples, with no state. /__session/{name}/... and /__sessions are the memory engine’s: start engagekit-mock without --engine prism.';

/** Headers of one hop, not passed on. */
const HOP = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'];

/** Serves `host:port`, passing requests on to Prism at `prismUrl`; resolves once it listens. */
export async function servePrismFront(opts: { host: string; port: number; prismUrl: string }) {
  const server = serve({
    hostname: opts.host,
    port: opts.port,
    fetch: async (request: Request) => {
      const path = getPath(request);
      if (path.startsWith('/__session/') || path === '/__sessions' || path === '/__session') {
        return Response.json({ success: false, code: 'not_found', message: PRISM_NO_SESSIONS }, { status: 404 });
      }
      const headers = new Headers(request.headers);
      for (const name of HOP) headers.delete(name);
      const url = new URL(request.url);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return fetch(`${opts.prismUrl}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
        redirect: 'manual',
        signal: request.signal,
      } as RequestInit);
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', fail);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
