import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import type { App } from '../../http/types.js';

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
      return reply
        .header('Content-Type', contentTypeOf(name))
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('X-Content-Type-Options', 'nosniff')
        .send(stream);
    },
  );
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
};

/** Served types come from the name; anything active (HTML, SVG) is served as a download. */
function contentTypeOf(name: string): string {
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[extension] ?? 'application/octet-stream';
}
