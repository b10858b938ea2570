import { ApiError } from '../../errors.js';
import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { ChangeRequestParams } from '../change-requests/schemas.js';
import { SpaceParams } from '../spaces/schemas.js';
import { PdfQuery, PdfUrl, PrintParams } from './schemas.js';

/** Printed pages are for the one who asked: never cached by others, indexed or referred. */
const PRIVATE = {
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};
/** The print HTML has no script and loads its images only (those of a published page). */
const PRINT_CSP =
  "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Change requests and spaces as PDF (API.md 4.4): the print URL operations and the URLs themselves. */
export function pdfRoutes(app: App): void {
  const { services } = app.quire;
  const tags = ['change-requests'];

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      schema: {
        operationId: 'getChangeRequestPDF',
        tags,
        params: ChangeRequestParams,
        querystring: PdfQuery,
        response: { 200: PdfUrl, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      services.pdf.mint(request.actor, request.params.spaceId, request.params.changeRequestId, request.query),
  );

  app.get(
    '/v1/spaces/:spaceId/pdf',
    {
      schema: {
        operationId: 'getSpacePDF',
        tags: ['spaces'],
        params: SpaceParams,
        querystring: PdfQuery,
        response: { 200: PdfUrl, ...STANDARD_ERRORS },
      },
    },
    async (request) => services.pdf.mint(request.actor, request.params.spaceId, undefined, request.query),
  );

  // The URL is the credential (a signed grant, print-token.ts): no Authorization header.
  app.get(
    '/print/:token',
    { config: { public: true }, schema: { hide: true, params: PrintParams } },
    async (request, reply) => {
      const { token } = request.params;
      if (!token.endsWith('.pdf')) {
        const html = await services.pdf.html(token);
        return reply
          .headers({
            ...PRIVATE,
            'Content-Type': 'text/html; charset=utf-8',
            'Content-Security-Policy': PRINT_CSP,
          })
          .send(html);
      }
      const answer = await services.pdf.pdf(token.slice(0, -'.pdf'.length));
      if (answer.kind === 'html') return reply.headers(PRIVATE).redirect(answer.location, 302);
      if (answer.kind === 'busy') {
        reply.header('Retry-After', '30');
        throw new ApiError(503, 'The PDF is still being printed: ask again in a minute');
      }
      return reply
        .headers({
          ...PRIVATE,
          'Content-Type': 'application/pdf',
          'Content-Disposition': `inline; filename="${answer.fileName}.pdf"`,
        })
        .send(answer.body);
    },
  );
}
