import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentUser } from './present.js';
import { User, UserParams } from './schemas.js';

export function userRoutes(app: App): void {
  const { services, urls, frontDoor } = app.quire;

  app.get(
    '/v1/user',
    {
      schema: {
        operationId: 'getAuthenticatedUser',
        tags: ['users'],
        summary: 'The user behind the token',
        response: { 200: User, ...STANDARD_ERRORS },
      },
      // Every client asks it first: answered again before routing while nothing changed.
      ...frontDoor.kept.hooks,
    },
    async (request) => presentUser(await services.users.get(request.actor.userId), urls),
  );

  app.get(
    '/v1/users/:userId',
    {
      schema: {
        operationId: 'getUserById',
        tags: ['users'],
        summary: 'A user who shares an organization with the caller',
        params: UserParams,
        response: { 200: User, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentUser(await services.users.getVisible(request.actor, request.params.userId), urls),
  );
}
