// The peer of `mock.startup.vs-node-http` and `mock.http.cpu.vs-node-http`: a bare node:http server on PORT answering every request with
// PEER_BODY, as an ES module like the mock's command. Plain JavaScript: nothing to strip or compile first.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.PEER_BODY ?? '{}');
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
