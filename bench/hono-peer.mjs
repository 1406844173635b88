// The floor side of `mock.http.cpu.vs-node-http` (the row `mock.http.cpu.floor.vs-node-http`): a bare Hono app
// served by @hono/node-server, the adapter the mock's HTTP mode runs on, answering getCampaign on PORT with
// PEER_BODY and the headers the mock answers with (PEER_HEADERS, a JSON object), a fresh x-request-id each:
// what any Hono app answering the same bytes pays, with none of the mock's own work. Plain JavaScript, as
// `startup-peer.mjs` is.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = process.env.PEER_BODY ?? '{}';
const headers = JSON.parse(process.env.PEER_HEADERS ?? '{}');
let answered = 0;
const app = new Hono()
  .get('/api/v2/health', (c) => c.json({ status: 'ok' }))
  .get('/agency/getCampaign/:id', () => new Response(body, { headers: { ...headers, 'x-request-id': `req_${++answered}` } }));
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
