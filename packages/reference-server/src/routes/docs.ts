import { createOpenApiDocument } from '@engagekit/contract/document';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { Env } from './register.ts';

let document: ReturnType<typeof createOpenApiDocument> | undefined;

/**
 * `GET /openapi.json` (the contract's document) and `GET /docs` (an API reference rendered from it).
 * Both public. The document served names the server it was loaded from as its one server, so the
 * reference (and a generator pointed at it) calls this server.
 */
export function docsRoutes(app: Hono<Env>, bundle: (() => string) | undefined) {
  app.get('/openapi.json', (c) => {
    document ??= createOpenApiDocument();
    return c.json({ ...document, servers: [{ url: new URL(c.req.url).origin, description: 'The server this document was loaded from.' }] });
  });
  if (bundle) {
    let js: string | undefined;
    app.get('/docs/scalar.js', (c) => {
      js ??= bundle();
      return c.body(js, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' });
    });
  }
  app.get(
    '/docs',
    Scalar({
      url: '/openapi.json',
      pageTitle: 'engagekit API reference',
      withDefaultFonts: false,
      // A self-hosted reference: none of the buttons for Scalar's hosted services (Ask AI, Generate MCP, Deploy).
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      ...(bundle ? { cdn: '/docs/scalar.js' } : {}),
    }),
  );
}
