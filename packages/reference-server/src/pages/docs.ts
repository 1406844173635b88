import type { AppEnv } from '@engagekit/runtime';
import type { Hono, MiddlewareHandler } from 'hono';

/** Where the page loads Scalar from when the package carries no bundle of its own (a build from source). */
const SCALAR_CDN = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference';

/**
 * Scalar's settings for the page. A self-hosted reference: none of the buttons for Scalar's hosted
 * services (Ask AI, Generate MCP, Deploy), and no web fonts fetched from elsewhere.
 */
const SCALAR_SETTINGS = {
  url: '/openapi.json',
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
};

/** The /docs page: Scalar's browser bundle rendering the document at /openapi.json. */
export function docsPage(scriptSrc: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>engagekit API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${scriptSrc}"></script>
    <script>Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_SETTINGS)});</script>
  </body>
</html>
`;
}

/**
 * `GET /docs`: an API reference rendered from the document at /openapi.json. Public. With `bundle`
 * (Scalar's standalone script, which the package carries), it works offline; without it the page
 * loads Scalar from its CDN. Any other path under /docs is a 404.
 */
export function docsRoutes(app: Hono<AppEnv>, pageHeaders: MiddlewareHandler<AppEnv>, bundle: (() => string) | undefined) {
  if (bundle) {
    let js: string | undefined;
    app.get('/docs/scalar.js', pageHeaders, (c) => {
      js ??= bundle();
      return c.body(js, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' });
    });
  }
  const page = docsPage(bundle ? '/docs/scalar.js' : SCALAR_CDN);
  app.get('/docs', pageHeaders, (c) => c.html(page));
}
