import { createHash } from 'node:crypto';
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

/**
 * The page's one inline script, run before Scalar's bundle: it starts Scalar once the bundle has run.
 * It also turns off zod's compiled parsers (`jitless`, zod's setting for pages that forbid eval, which
 * the bundled zod reads from this global): otherwise zod probes for eval with `Function('')`, which the
 * policy refuses and reports.
 */
const START_SCRIPT = `globalThis.__zod_globalConfig = { jitless: true }; document.addEventListener('DOMContentLoaded', () => Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_SETTINGS)}));`;

/** The inline script's hash, by which the page's Content-Security-Policy lets it run and no other inline script. */
const START_SCRIPT_HASH = `'sha256-${createHash('sha256').update(START_SCRIPT).digest('base64')}'`;

/** The /docs page: Scalar's browser bundle rendering the document at /openapi.json. */
function docsPage(scriptSrc: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>engagekit API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script>${START_SCRIPT}</script>
    <script src="${scriptSrc}"></script>
  </body>
</html>
`;
}

/**
 * The Content-Security-Policy of /docs: scripts from this server (or the one CDN file, when the
 * package carries no bundle) and the inline start script by its hash; calls, images and fonts from
 * this server only; never in a frame. Styles may be inline: Scalar's components set style attributes
 * and add style elements of their own, and with images, fonts and calls held to this server a style
 * cannot send anything elsewhere.
 */
function docsPolicy(scriptSrc: string): string {
  const scripts = scriptSrc.startsWith('https://') ? `'self' ${scriptSrc} ${START_SCRIPT_HASH}` : `'self' ${START_SCRIPT_HASH}`;
  return [
    "default-src 'none'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * `GET /docs`: an API reference rendered from the document at /openapi.json. Public. With `bundle`
 * (Scalar's standalone script, which the package carries), it works offline; without it the page
 * loads Scalar from its CDN. Any other path under /docs is a 404. The page may not be framed
 * (clickjacking) and runs no script but Scalar's and its own start script.
 */
export function docsRoutes(app: Hono<AppEnv>, pageHeaders: MiddlewareHandler<AppEnv>, bundle: (() => string) | undefined) {
  if (bundle) {
    let js: string | undefined;
    app.get('/docs/scalar.js', pageHeaders, (c) => {
      js ??= bundle();
      return c.body(js, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' });
    });
  }
  const scriptSrc = bundle ? '/docs/scalar.js' : SCALAR_CDN;
  const page = docsPage(scriptSrc);
  const headers = {
    'content-security-policy': docsPolicy(scriptSrc),
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
  app.get('/docs', pageHeaders, (c) => c.html(page, 200, headers));
}
