import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import type { App } from '../../http/types.js';
import { servedType } from '../change-requests/file-facts.js';

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
      const type = servedType(name);
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
