/**
 * What the mock's rows share: the campaign they create, the mock's command and the bare node:http
 * server that is the peer of its HTTP and startup rows.
 */

/** A campaign body the rows create. */
export const CAMPAIGN = { name: 'bench', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } } as const;

/** The command users run: bin/engagekit-mock.js, which imports the bundled CLI (dist/cli.js, built by `pnpm build`). */
export const MOCK_CLI = new URL('../../packages/mock-server/bin/engagekit-mock.js', import.meta.url).pathname;

/** The peer of mock.startup.vs-node-http and mock.http.cpu.vs-node-http: a bare node:http server as an ES module. */
export const STARTUP_PEER = new URL('../startup-peer.mjs', import.meta.url).pathname;

/** The floor side of mock.http.cpu.vs-node-http: a bare Hono app on @hono/node-server answering the mock's body and headers. */
export const HONO_PEER = new URL('../hono-peer.mjs', import.meta.url).pathname;
