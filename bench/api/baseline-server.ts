import { createServer } from 'node:http';

/** The baseline: a bare node:http server answering the same bytes Quire answers. */
const port = Number(process.env.PORT);
const body = Buffer.from(process.env.BASELINE_BODY ?? '{}', 'utf8');

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
