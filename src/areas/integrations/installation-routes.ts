import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentInstallation, presentSpaceInstallation } from './present.js';
import {
  InstallationParams,
  InstallOnSpaceBody,
  IntegrationInstallation,
  IntegrationSpaceInstallation,
  ListSpaceInstallationsQuery,
  SpaceInstallationParams,
  SpaceInstallationQuery,
  UpdateInstallationBody,
  UpdateSpaceInstallationBody,
} from './schemas.js';

const INSTALLATION = '/v1/integrations/:integrationName/installations/:installationId';
const SPACE = `${INSTALLATION}/spaces/:spaceId`;

/**
 * Managing an installation once made: its settings, uninstalling it, and installing it on single
 * spaces (API.md 4.13's neighbours in the official contract). Admins of the installation's
 * organization; everyone else is answered 404.
 */
export function installationRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['integrations'];

  app.patch(
    INSTALLATION,
    {
      schema: {
        operationId: 'updateIntegrationInstallation',
        tags,
        params: InstallationParams,
        body: UpdateInstallationBody,
        response: { 200: IntegrationInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const view = await services.integrations.updateInstallation(
        request.actor,
        integrationName,
        installationId,
        request.body,
      );
      return presentInstallation(view.row, urls, view.spaces);
    },
  );

  app.delete(
    INSTALLATION,
    {
      schema: {
        operationId: 'uninstallIntegration',
        tags,
        params: InstallationParams,
        response: { 204: Type.Null(), 205: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const removed = await services.integrations.uninstall(request.actor, integrationName, installationId);
      return reply.code(removed ? 205 : 204).send(null);
    },
  );

  app.get(
    `${INSTALLATION}/spaces`,
    {
      schema: {
        operationId: 'listIntegrationInstallationSpaces',
        tags,
        params: InstallationParams,
        querystring: ListSpaceInstallationsQuery,
        response: { 200: listOf(IntegrationSpaceInstallation), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const page = await services.integrationSpaces.list(
        request.actor,
        integrationName,
        installationId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map((row) => presentSpaceInstallation(row, integrationName, urls)),
      };
    },
  );

  app.post(
    `${INSTALLATION}/spaces`,
    {
      schema: {
        operationId: 'installIntegrationOnSpace',
        tags,
        params: InstallationParams,
        querystring: SpaceInstallationQuery,
        body: InstallOnSpaceBody,
        response: { 201: IntegrationSpaceInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const row = await services.integrationSpaces.install(
        request.actor,
        integrationName,
        installationId,
        request.body.space,
      );
      const presented = presentSpaceInstallation(row, integrationName, urls);
      return reply.code(201).header('Location', presented.urls.location).send(presented);
    },
  );

  app.get(
    SPACE,
    {
      schema: {
        operationId: 'getIntegrationSpaceInstallation',
        tags,
        params: SpaceInstallationParams,
        querystring: SpaceInstallationQuery,
        response: { 200: IntegrationSpaceInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      const row = await services.integrationSpaces.get(
        request.actor,
        integrationName,
        installationId,
        spaceId,
      );
      return presentSpaceInstallation(row, integrationName, urls);
    },
  );

  app.patch(
    SPACE,
    {
      schema: {
        operationId: 'updateIntegrationSpaceInstallation',
        tags,
        params: SpaceInstallationParams,
        querystring: SpaceInstallationQuery,
        body: UpdateSpaceInstallationBody,
        response: { 200: IntegrationSpaceInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      const row = await services.integrationSpaces.update(
        request.actor,
        integrationName,
        installationId,
        spaceId,
        request.body,
      );
      return presentSpaceInstallation(row, integrationName, urls);
    },
  );

  app.delete(
    SPACE,
    {
      schema: {
        operationId: 'uninstallIntegrationFromSpace',
        tags,
        params: SpaceInstallationParams,
        response: { 204: Type.Null(), 205: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, spaceId } = request.params;
      const removed = await services.integrationSpaces.uninstall(
        request.actor,
        integrationName,
        installationId,
        spaceId,
      );
      return reply.code(removed ? 205 : 204).send(null);
    },
  );
}
