import type { AppEnv } from '@engagekit/runtime';
import type { Hono, MiddlewareHandler } from 'hono';
import { settingsScript } from './settings-client.ts';

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>engagekit · Webhook settings</title>
<link rel="stylesheet" href="/settings/app.css">
</head>
<body aria-busy="false">
<header><h1>engagekit <span>webhook settings</span></h1><p id="who" hidden></p></header>
<main>
  <p id="notice" class="notice" role="status" hidden></p>
  <section id="signin">
    <h2>Sign in</h2>
    <form id="signin-form">
      <label for="token">Company token</label>
      <textarea id="token" rows="4" cols="70" placeholder="eyJhbGciOi..." required></textarea>
      <p class="hint">The JWT the admin API issued for your company (POST /api/v2/companies/{uuid}/tokens). It stays in this tab only.</p>
      <button type="submit">Sign in</button>
    </form>
  </section>
  <section id="main" hidden>
    <p>Company <code id="company"></code> <button type="button" data-action="signout">Sign out</button></p>
    <h2>Endpoints</h2>
    <table id="endpoints"><thead><tr><th>URL</th><th>Events</th><th>State</th><th></th></tr></thead><tbody></tbody></table>
    <h3>Add an endpoint</h3>
    <form id="create">
      <label>URL <input name="url" type="url" required size="60" placeholder="https://hooks.example.com/engagekit"></label>
      <label>Description <input name="description" size="40"></label>
      <fieldset id="new-events"></fieldset>
      <button type="submit">Add endpoint</button>
    </form>
    <section id="detail" hidden></section>
  </section>
</main>
<script src="/settings/app.js"></script>
</body>
</html>`;

const CSS = `
:root { font-family: system-ui, sans-serif; color: #1d2433; background: #f6f7fb; }
body { margin: 0; }
header { background: #1d2433; color: #fff; padding: 0.8rem 1.5rem; }
header h1 { margin: 0; font-size: 1.2rem; } header h1 span { font-weight: 400; opacity: 0.7; }
main { max-width: 70rem; margin: 1.5rem auto; padding: 0 1.5rem; }
section#detail { background: #fff; border: 1px solid #d9dce6; border-radius: 8px; padding: 1rem 1.5rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #e3e6ee; font-size: 0.9rem; vertical-align: top; }
tr.selected { background: #eef3ff; }
td.url { font-family: ui-monospace, monospace; word-break: break-all; }
td.empty { color: #777; font-style: italic; }
td.status.succeeded { color: #18794e; } td.status.failed { color: #c62a2f; } td.status.pending { color: #9a6700; }
form { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: center; margin: 0.5rem 0 1rem; }
form label { display: flex; gap: 0.4rem; align-items: center; }
#signin-form { flex-direction: column; align-items: flex-start; }
fieldset { border: 1px solid #d9dce6; border-radius: 6px; display: flex; gap: 1rem; }
button { background: #3451b2; color: #fff; border: 0; border-radius: 6px; padding: 0.35rem 0.8rem; cursor: pointer; }
button.danger { background: #c62a2f; }
code { font-family: ui-monospace, monospace; background: #eef0f5; padding: 0.1rem 0.3rem; border-radius: 4px; }
.notice { padding: 0.6rem 1rem; border-radius: 6px; }
.notice.error { background: #fdecec; color: #8e1d21; } .notice.ok { background: #e7f6ee; color: #145c3c; }
.hint { color: #666; font-size: 0.85rem; margin: 0; }
`;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `/settings`: the page where a person manages the company's webhook endpoints with a company token. Public; its calls carry the token. */
export function settingsRoutes(app: Hono<AppEnv>, pageHeaders: MiddlewareHandler<AppEnv>) {
  const script = settingsScript();
  app.get('/settings', pageHeaders, (c) => c.html(HTML, 200, SECURITY_HEADERS));
  app.get('/settings/app.js', pageHeaders, (c) => c.body(script, 200, { 'content-type': 'text/javascript; charset=utf-8', ...SECURITY_HEADERS }));
  app.get('/settings/app.css', pageHeaders, (c) => c.body(CSS, 200, { 'content-type': 'text/css; charset=utf-8', ...SECURITY_HEADERS }));
}
