import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import type { App } from '../../http/types.js';
import { typeFromName } from '../change-requests/file-facts.js';

/**
 * File downloads, at the `downloadURL` of each file: by content hash, which only readers of the
 * content learn (like a signed URL that does not expire), so no token is needed.
 */
export function fileRoutes(app: App): void {
  const { services } = app.quire;
  app.get(
    '/files/:hash/:name',
    {
      config: { public: true },
      schema: {
        hide: true,
        params: Type.Object({
          hash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
          name: Type.String({ maxLength: 256 }),
        }),
      },
    },
    async (request, reply) => {
      const stream = await services.blobs.stream(request.params.hash);
      if (!stream) throw notFound('No such file');
      const name = request.params.name;
      const type = contentTypeOf(name);
      // An SVG opened on its own is a document that could run script: forbid any, as for HTML
      // a sandbox does (in an <img>, SVG never runs script anyway).
      if (type === SVG)
        reply.header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
        );
      return reply
        .header('Content-Type', type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(stream);
    },
  );
}

const SVG = 'image/svg+xml';
/** Types served as what they are; anything else (HTML above all) is served as bytes to download. */
const SERVED = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  SVG,
  'application/pdf',
  'application/json',
  'text/plain',
  'text/csv',
  'video/mp4',
]);

/** Served types come from the name. */
function contentTypeOf(name: string): string {
  const type = typeFromName(name);
  if (!SERVED.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}
