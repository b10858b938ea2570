import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

/**
 * The baseline for bench/site: a bare node:http server answering, for each page URL, the same
 * bytes and headers Quire answered for it (read from BASELINE_PAGES, one JSON object a line),
 * and the same 304 when If-None-Match names the page's ETag.
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

createServer((req, res) => {
  const page = pages.get(req.url ?? '');
  if (!page) {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
    return;
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch?.split(/\s*,\s*/).includes(page.etag)) {
    res.writeHead(304, page.notModified);
    res.end();
    return;
  }
  res.writeHead(200, page.headers);
  res.end(page.body);
}).listen(port, '127.0.0.1', () => process.stdout.write(`listening with ${pages.size} pages\n`));
