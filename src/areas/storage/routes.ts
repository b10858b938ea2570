import { Type } from 'typebox';
import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { GenerateUploadBody, MAX_UPLOAD_BYTES, StorageUploadURL } from './schemas.js';

export async function storageRoutes(app: App): Promise<void> {
  const { services, urls } = app.quire;

  app.post(
    '/v1/orgs/:organizationId/storage/upload',
    {
      schema: {
        operationId: 'generateStorageUploadURL',
        summary: 'Create a single-use URL (valid one hour) to PUT a file to, and the key naming the file',
        tags: ['storage'],
        params: OrgParams,
        body: GenerateUploadBody,
        response: { 201: StorageUploadURL, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { key, token } = await services.storage.createUpload(
        request.actor,
        request.params.organizationId,
        request.body,
      );
      return reply
        .code(201)
        .send({ object: 'storage-signed-url' as const, url: `${urls.base}/storage/uploads/${token}`, key });
    },
  );

  // The upload itself takes raw bytes of any type: its own parser, scoped to this plugin.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.put(
      '/storage/uploads/:token',
      {
        config: { public: true },
        bodyLimit: MAX_UPLOAD_BYTES,
        schema: { hide: true, params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }) },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        await services.storage.receive((request.params as { token: string }).token, body);
        return reply.code(200).send();
      },
    );
  });
}
