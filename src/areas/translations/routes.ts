import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentTranslation } from './present.js';
import {
  CreateTranslationBody,
  ListTranslationsQuery,
  Translation,
  TranslationParams,
  UpdateTranslationBody,
} from './schemas.js';

const ONE = '/v1/orgs/:organizationId/translations/:translationId';

/** Translations (API.md 4.10). */
export function translationRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['translations'];

  app.get(
    '/v1/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'listTranslations',
        tags,
        params: OrgParams,
        querystring: ListTranslationsQuery,
        response: { 200: listOf(Translation), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.translations.list(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((row) => presentTranslation(row, urls)) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'createTranslation',
        tags,
        params: OrgParams,
        body: CreateTranslationBody,
        response: { 201: Translation, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const row = await services.translations.create(
        request.actor,
        request.params.organizationId,
        request.body,
      );
      const translation = presentTranslation(row, urls);
      return reply.code(201).header('Location', translation.urls.location).send(translation);
    },
  );

  app.get(
    ONE,
    {
      schema: {
        operationId: 'getTranslation',
        tags,
        params: TranslationParams,
        response: { 200: Translation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, translationId } = request.params;
      return presentTranslation(
        await services.translations.get(request.actor, organizationId, translationId),
        urls,
      );
    },
  );

  app.put(
    ONE,
    {
      schema: {
        operationId: 'updateTranslation',
        tags,
        params: TranslationParams,
        body: UpdateTranslationBody,
        response: { 200: Translation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, translationId } = request.params;
      const row = await services.translations.update(
        request.actor,
        organizationId,
        translationId,
        request.body.instructions,
      );
      return presentTranslation(row, urls);
    },
  );

  app.delete(
    ONE,
    {
      schema: {
        operationId: 'deleteTranslation',
        tags,
        params: TranslationParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, translationId } = request.params;
      await services.translations.delete(request.actor, organizationId, translationId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${ONE}/run`,
    {
      schema: {
        operationId: 'runTranslation',
        tags,
        params: TranslationParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, translationId } = request.params;
      await services.translations.run(request.actor, organizationId, translationId);
      return reply.code(204).send(null);
    },
  );
}
