import { createOpenApiDocument } from '@engagekit/contract/document';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { Env } from './register.ts';

let document: ReturnType<typeof createOpenApiDocument> | undefined;

/** `GET /openapi.json` (the contract's document) and `GET /docs` (an API reference rendered from it). Both public. */
export function docsRoutes(app: Hono<Env>, bundle: (() => string) | undefined) {
  app.get('/openapi.json', (c) => {
    document ??= createOpenApiDocument();
    return c.json(document);
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
    Scalar({ url: '/openapi.json', pageTitle: 'engagekit API reference', withDefaultFonts: false, ...(bundle ? { cdn: '/docs/scalar.js' } : {}) }),
  );
}
