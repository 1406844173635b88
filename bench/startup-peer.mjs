// The peer of `mock.startup.vs-node-http` and `mock.http.cpu.vs-node-http`: a bare node:http server on PORT answering every request with
// PEER_BODY, as an ES module like the mock's command. Plain JavaScript: nothing to strip or compile first.
// With PEER_PRELOAD (a file URL) it imports that module before it listens: `mock.startup.floor.vs-node-http`
// loads zod so, the library every mock loads before its first answer.
import { createServer } from 'node:http';

if (process.env.PEER_PRELOAD) await import(process.env.PEER_PRELOAD);

const body = Buffer.from(process.env.PEER_BODY ?? '{}');
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
