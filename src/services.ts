import path from 'node:path';
import { AgentInstructionsService } from './areas/agent-instructions/service.js';
import { ContentWriteService } from './areas/change-requests/content-writes.js';
import { MergeService } from './areas/change-requests/merging.js';
import { ReviewsService } from './areas/change-requests/reviews.js';
import { ChangeRequestsService } from './areas/change-requests/service.js';
import { CollectionsService } from './areas/collections/service.js';
import { CommentsService } from './areas/comments/service.js';
import { LinkIndex } from './areas/content/link-index.js';
import { LinksService } from './areas/content/links-service.js';
import { ContentService } from './areas/content/service.js';
import { TemplatesService } from './areas/content/templates.js';
import { GitService } from './areas/git/service.js';
import { ImportsService } from './areas/imports/service.js';
import { InvitesService } from './areas/invites/service.js';
import { MembersService } from './areas/members/service.js';
import { OrgsService } from './areas/orgs/service.js';
import { GrantsService } from './areas/permissions/service.js';
import { SearchService } from './areas/search/service.js';
import { SitesArea } from './areas/sites/area.js';
import { SpacesService } from './areas/spaces/service.js';
import { TrashService } from './areas/spaces/trash.js';
import { StorageService } from './areas/storage/service.js';
import { TeamsService } from './areas/teams/service.js';
import { UsersService } from './areas/users/service.js';
import { Authorizer } from './auth/authorize.js';
import { TokenService } from './auth/token-service.js';
import { type BlobStore, FileBlobStore } from './content/blob-store.js';
import { ContentStore } from './content/store.js';
import type { Deps } from './deps.js';
import { OutboundClient } from './http/outbound.js';
import { JobQueue, type QueueOptions } from './jobs/queue.js';
import { SearchEngine } from './search/engine.js';

/** Every area's service, built once per server; areas call each other only through these. */
export interface Services {
  authz: Authorizer;
  tokens: TokenService;
  users: UsersService;
  orgs: OrgsService;
  members: MembersService;
  invites: InvitesService;
  agentInstructions: AgentInstructionsService;
  jobs: JobQueue;
  collections: CollectionsService;
  spaces: SpacesService;
  trash: TrashService;
  teams: TeamsService;
  grants: GrantsService;
  store: ContentStore;
  blobs: BlobStore;
  outbound: OutboundClient;
  changeRequests: ChangeRequestsService;
  reviews: ReviewsService;
  merges: MergeService;
  links: LinkIndex;
  content: ContentService;
  contentWrites: ContentWriteService;
  linkReader: LinksService;
  templates: TemplatesService;
  comments: CommentsService;
  sites: SitesArea;
  searchEngine: SearchEngine;
  search: SearchService;
  git: GitService;
  imports: ImportsService;
  storage: StorageService;
}

const HOUR_MS = 60 * 60 * 1000;

export function createServices(deps: Deps, queue: QueueOptions = {}): Services {
  const services = {} as Services;
  services.authz = new Authorizer(deps);
  services.tokens = new TokenService(deps);
  services.users = new UsersService(deps, services);
  services.orgs = new OrgsService(deps, services);
  services.members = new MembersService(deps, services);
  services.invites = new InvitesService(deps, services);
  services.agentInstructions = new AgentInstructionsService(deps, services);
  services.jobs = new JobQueue(deps, queue);
  services.store = new ContentStore();
  services.blobs = new FileBlobStore(path.join(deps.config.dataDir, 'blobs'));
  services.outbound = new OutboundClient({ allow: deps.config.outboundAllow });
  services.changeRequests = new ChangeRequestsService(deps, services);
  services.reviews = new ReviewsService(deps, services);
  services.merges = new MergeService(deps, services);
  services.links = new LinkIndex(services);
  services.content = new ContentService(deps, services);
  services.contentWrites = new ContentWriteService(deps, services);
  services.linkReader = new LinksService(deps, services);
  services.templates = new TemplatesService(services);
  services.comments = new CommentsService(deps, services);
  services.collections = new CollectionsService(deps, services);
  services.spaces = new SpacesService(deps, services);
  services.trash = new TrashService(deps, services);
  services.teams = new TeamsService(deps, services);
  services.grants = new GrantsService(deps, services);
  services.sites = new SitesArea(deps, services);
  services.searchEngine = new SearchEngine(deps, services);
  services.search = new SearchService(deps, services);
  services.git = new GitService(deps, services);
  services.storage = new StorageService(deps, services);
  services.imports = new ImportsService(deps, services);
  registerJobs(services);
  return services;
}

/** Every kind of background job, and the recurring ones. */
function registerJobs(services: Services): void {
  services.jobs.register('trash.purge', async () => {
    await services.trash.purge();
  });
  services.jobs.schedule('trash.purge', HOUR_MS, 'trash.purge');
  services.searchEngine.registerJobs(services.jobs);
  services.git.registerJobs();
  services.imports.registerJobs();
}
