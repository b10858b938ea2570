import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';

/**
 * The baseline for bench/site: a bare node:http server answering, for each page URL, the same
 * bytes and headers Quire answered for it (read from BASELINE_PAGES, one JSON object a line),
 * and the same 304 when If-None-Match names the page's ETag. With BASELINE_FRAMEWORK=fastify,
 * the same answers through Fastify, with one async onRequest hook and a wildcard route like
 * Quire's published sites: what the framework itself costs, the most Quire can reach on it.
 */
interface StoredPage {
  path: string;
  etag: string;
  body: string;
  headers: Record<string, string>;
  notModified: Record<string, string>;
}

const port = Number(process.env.PORT);
const pages = new Map<
  string,
  {
    etag: string;
    body: Buffer;
    headers: Record<string, string | number>;
    notModified: Record<string, string>;
  }
>();
for await (const line of createInterface({ input: createReadStream(process.env.BASELINE_PAGES!) })) {
  if (line === '') continue;
  const page = JSON.parse(line) as StoredPage;
  const body = Buffer.from(page.body, 'utf8');
  pages.set(page.path, {
    etag: page.etag,
    body,
    headers: { ...page.headers, 'content-length': body.length },
    notModified: page.notModified,
  });
}

type Answer = { status: number; headers: Record<string, string | number>; body?: Buffer };

function answer(url: string, ifNoneMatch: string | undefined): Answer {
  const page = pages.get(url);
  if (!page) return { status: 404, headers: { 'content-length': 0 } };
  if (ifNoneMatch?.split(/\s*,\s*/).includes(page.etag)) return { status: 304, headers: page.notModified };
  return { status: 200, headers: page.headers, body: page.body };
}

const listening = () => process.stdout.write(`listening with ${pages.size} pages\n`);
if (process.env.BASELINE_FRAMEWORK === 'fastify') {
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.get('/*', async (request, reply) => {
    const { status, headers, body } = answer(request.url, request.headers['if-none-match']);
    reply.code(status);
    for (const [name, value] of Object.entries(headers))
      if (name !== 'content-length') reply.header(name, value);
    return reply.send(body ?? '');
  });
  await app.listen({ port, host: '127.0.0.1' });
  listening();
} else {
  createServer((req, res) => {
    const { status, headers, body } = answer(req.url ?? '', req.headers['if-none-match']);
    res.writeHead(status, headers);
    res.end(body);
  }).listen(port, '127.0.0.1', listening);
}
