/** The bare node:http peer: answers every request with PEER_BODY. Prints its URL when ready. */
import { createServer } from 'node:http';

const body = Buffer.from(process.env.PEER_BODY ?? '{}');
const type = process.env.PEER_TYPE ?? 'application/json';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
