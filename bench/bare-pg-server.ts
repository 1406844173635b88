/**
 * The driver's ceiling for server.read.pg: a bare node:http server that answers every request with
 * one campaign read through node-postgres (a pool and a named statement, as the reference server
 * reads it), with no framework, auth or validation. Prints its URL when ready.
 */
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const read = {
  name: 'bench_get_campaign',
  text: 'SELECT * FROM campaigns WHERE company_uuid = $1 AND id = $2',
  values: [process.env.COMPANY_UUID, process.env.CAMPAIGN_ID],
};
const server = createServer((req, res) => {
  req.resume();
  pool.query(read).then(
    ({ rows }) => {
      const body = JSON.stringify({ success: true, message: 'Successfully fetched campaign data.', data: rows[0] });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
    (error: Error) => {
      res.writeHead(500).end(error.message);
    },
  );
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
