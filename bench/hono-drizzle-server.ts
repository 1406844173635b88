/**
 * The peer of server.read.pg.vs-hono-drizzle: what a team writes for itself to serve one campaign.
 * Hono on @hono/node-server, drizzle over a node-postgres pool, the campaigns table as the reference
 * server declares it, one select by company and id, the row as JSON: no auth, validation, envelope or
 * logging. Prints its URL when ready.
 */
import { serve } from '@hono/node-server';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Hono } from 'hono';
import pg from 'pg';
import { campaigns } from '../packages/reference-server/src/store/sql/schema.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const db = drizzle(pool);

const app = new Hono();
app.get('/agency/getCampaign/:id', async (c) => {
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.company_uuid, c.req.query('uuid') ?? ''), eq(campaigns.id, c.req.param('id'))));
  return campaign ? c.json(campaign) : c.notFound();
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
