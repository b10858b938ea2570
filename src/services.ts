import { AgentInstructionsService } from './areas/agent-instructions/service.js';
import { InvitesService } from './areas/invites/service.js';
import { MembersService } from './areas/members/service.js';
import { OrgsService } from './areas/orgs/service.js';
import { UsersService } from './areas/users/service.js';
import { Authorizer } from './auth/authorize.js';
import { TokenService } from './auth/token-service.js';
import type { Deps } from './deps.js';

/** Every area's service, built once per server; areas call each other only through these. */
export interface Services {
  authz: Authorizer;
  tokens: TokenService;
  users: UsersService;
  orgs: OrgsService;
  members: MembersService;
  invites: InvitesService;
  agentInstructions: AgentInstructionsService;
}

export function createServices(deps: Deps): Services {
  const services = {} as Services;
  services.authz = new Authorizer(deps);
  services.tokens = new TokenService(deps);
  services.users = new UsersService(deps, services);
  services.orgs = new OrgsService(deps, services);
  services.members = new MembersService(deps, services);
  services.invites = new InvitesService(deps, services);
  services.agentInstructions = new AgentInstructionsService(deps, services);
  return services;
}
