import { AgentInstructionsService } from './areas/agent-instructions/service.js';
import { ContentWriteService } from './areas/change-requests/content-writes.js';
import { MergeService } from './areas/change-requests/merging.js';
import { ReviewsService } from './areas/change-requests/reviews.js';
import { ChangeRequestsService } from './areas/change-requests/service.js';
import { CollectionsService } from './areas/collections/service.js';
import { CommentsService } from './areas/comments/service.js';
import { DocumentFill } from './areas/content/document-fill.js';
import { LinkIndex } from './areas/content/link-index.js';
import { LinksService } from './areas/content/links-service.js';
import { ContentService } from './areas/content/service.js';
import { StoredDocuments } from './areas/content/stored-documents.js';
import { TemplatesService } from './areas/content/templates.js';
import { ConversationAnalysis } from './areas/conversations/analysis.js';
import { ClustersService } from './areas/conversations/clusters.js';
import { ConversationsService } from './areas/conversations/service.js';
import { GitService } from './areas/git/service.js';
import { ImportsService } from './areas/imports/service.js';
import { IntegrationDelivery } from './areas/integrations/delivery.js';
import { IntegrationEventLog } from './areas/integrations/event-log.js';
import { integrationGateway } from './areas/integrations/gateway-routing.js';
import { InstallationIdentities } from './areas/integrations/identities.js';
import {
  presentInstallation,
  presentIntegration,
  presentSpaceInstallation,
} from './areas/integrations/present.js';
import { IntegrationsService } from './areas/integrations/service.js';
import { SiteViews } from './areas/integrations/site-views.js';
import { SpaceInstallationsService } from './areas/integrations/space-installations.js';
import { InvitesService } from './areas/invites/service.js';
import { MembersService } from './areas/members/service.js';
import { OpenApiService } from './areas/openapi/service.js';
import { OrgsService } from './areas/orgs/service.js';
import { PdfService } from './areas/pdf/service.js';
import { GrantsService } from './areas/permissions/service.js';
import { SearchService } from './areas/search/service.js';
import { AppPagesService } from './areas/sessions/pages-service.js';
import { SessionService } from './areas/sessions/service.js';
import { SitesArea } from './areas/sites/area.js';
import { SpacesService } from './areas/spaces/service.js';
import { TrashService } from './areas/spaces/trash.js';
import { SsoLoginService } from './areas/sso/login.js';
import { SamlRequestStore } from './areas/sso/requests.js';
import { SamlProvidersService } from './areas/sso/service.js';
import { StorageService } from './areas/storage/service.js';
import { TeamsService } from './areas/teams/service.js';
import { TranslationRunner } from './areas/translations/run.js';
import { TranslationsService } from './areas/translations/service.js';
import { presentUser } from './areas/users/present.js';
import { UsersService } from './areas/users/service.js';
import { EVERY_SPACE } from './auth/access-scope.js';
import { Authorizer } from './auth/authorize.js';
import { sessionCookie } from './auth/session-cookie.js';
import { TokenService } from './auth/token-service.js';
import { chromiumSource, findChromium } from './browser/chromium.js';
import { PdfPrinter } from './browser/pdf-printer.js';
import type { BlobStore } from './content/blob-store.js';
import { createBlobStore } from './content/s3-blob-store.js';
import { ContentStore } from './content/store.js';
import type { Deps } from './deps.js';
import { OutboundClient } from './http/outbound.js';
import type { GatewayHandler } from './integrations/runtime/gateway.js';
import { IntegrationRuntime } from './integrations/runtime/runtime.js';
import { findWorkerd } from './integrations/runtime/workerd-binary.js';
import { JobQueue, type QueueOptions } from './jobs/queue.js';
import { SearchEngine } from './search/engine.js';
import { dataDirSecretsKey, SecretBox } from './secret-box.js';
import { createProvider } from './translations/providers/index.js';

/**
 * Every area's service, built once per server: what routes and the app reach. Services do not
 * receive this bag: each declares the few services it calls (its `...Needs`), wired below.
 */
export interface Services {
  authz: Authorizer;
  tokens: TokenService;
  sessions: SessionService;
  appPages: AppPagesService;
  samlProviders: SamlProvidersService;
  ssoLogin: SsoLoginService;
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
  storedDocuments: StoredDocuments;
  documentFill: DocumentFill;
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
  openapi: OpenApiService;
  translations: TranslationsService;
  translationRuns: TranslationRunner;
  conversations: ConversationsService;
  conversationClusters: ClustersService;
  conversationAnalysis: ConversationAnalysis;
  /** Seals secrets kept in the database (QUIRE_SECRETS_KEY, or the data directory's key). */
  secretBox: SecretBox;
  integrations: IntegrationsService;
  /** Installations of integrations on single spaces. */
  integrationSpaces: SpaceInstallationsService;
  /** What became of the events delivered to integrations. */
  integrationEvents: IntegrationEventLog;
  integrationRuntime: IntegrationRuntime;
  integrationDelivery: IntegrationDelivery;
  integrationIdentities: InstallationIdentities;
  /** Page views of published sites, on their way to integrations as `site_view`. */
  siteViews: SiteViews;
  /** Print URLs of change requests and spaces, and the PDFs behind them. */
  pdf: PdfService;
  /** The browser that prints PDFs; undefined where there is none (print HTML only). */
  printer: PdfPrinter | undefined;
  /** Answers an integration script's calls to Quire's API in process; set by the app once built. */
  apiForGateway: GatewayHandler | undefined;
}

const HOUR_MS = 60 * 60 * 1000;
/** Largest event, answer or outgoing request of an integration script. */
const INTEGRATION_BODY_BYTES = 5 * 1024 * 1024;
/** The printing browser is closed after this long without a print. */
const PRINTER_IDLE_MS = 60 * 1000;
/** An integration's process is stopped after this long without events. */
const INTEGRATION_IDLE_MS = 5 * 60 * 1000;

export function createServices(deps: Deps, queue: QueueOptions = {}): Services {
  const s = {} as Services;
  s.authz = new Authorizer(deps);
  s.tokens = new TokenService(deps);
  s.jobs = new JobQueue(deps, queue);
  s.store = new ContentStore();
  s.blobs = createBlobStore(deps.config);
  s.outbound = new OutboundClient({ allow: deps.config.outboundAllow });
  s.openapi = new OpenApiService(deps, {
    authz: s.authz,
    jobs: s.jobs,
    blobs: s.blobs,
    outbound: s.outbound,
    ties: { specChanged: (tx, orgId, slug) => s.searchEngine.specChanged(tx, orgId, slug) },
  });

  // People and organizations. Members, teams and users are named by the areas built on them;
  // what those areas keep about them is reached back through the small "ties" they declare.
  s.members = new MembersService(deps, {
    authz: s.authz,
    ties: {
      teamCounts: (orgId, userIds) => s.teams.countsByUser(orgId, userIds),
      spaceGrantCounts: (orgId, userIds) => s.grants.spaceCountsByUser(orgId, userIds),
      leave: async (tx, orgId, userId) => {
        await s.teams.removeFromAll(tx, orgId, userId);
        await s.grants.removeUser(tx, orgId, userId);
      },
    },
  });
  s.users = new UsersService(deps, {
    invites: { acceptPendingFor: (tx, userId, email) => s.invites.acceptPendingFor(tx, userId, email) },
    members: s.members,
  });
  s.teams = new TeamsService(deps, {
    authz: s.authz,
    members: s.members,
    ties: { teamDeleted: (tx, teamId) => s.grants.removeTeam(tx, teamId) },
  });
  s.grants = new GrantsService(deps, { authz: s.authz, members: s.members, teams: s.teams });
  s.orgs = new OrgsService(deps, { authz: s.authz, members: s.members });
  s.sessions = new SessionService(deps, { users: s.users });
  s.samlProviders = new SamlProvidersService(deps, { authz: s.authz, orgs: s.orgs, teams: s.teams });
  s.ssoLogin = new SsoLoginService(deps, {
    providers: s.samlProviders,
    requests: new SamlRequestStore(deps),
    orgs: s.orgs,
    users: s.users,
    members: s.members,
    teams: s.teams,
    sessions: {
      start: (userId, source, userAgent) => s.sessions.start(userId, source, userAgent),
      cookie: (value, expiresAt) => sessionCookie(deps.config, value, expiresAt),
    },
  });
  s.agentInstructions = new AgentInstructionsService(deps, { authz: s.authz, orgs: s.orgs });

  // The content tree: spaces live in collections; collections reach their spaces and the trash
  // through ties.
  s.collections = new CollectionsService(deps, {
    authz: s.authz,
    grants: s.grants,
    ties: {
      spacesIn: (db, collectionIds) => s.spaces.idsIn(db, collectionIds),
      moveSpacesToOrg: (tx, spaceIds, orgId, now) => s.spaces.moveToOrg(tx, spaceIds, orgId, now),
      trash: (tx, items) => s.trash.trash(tx, items),
    },
  });
  s.trash = new TrashService(deps, { authz: s.authz, collections: s.collections, grants: s.grants });
  s.spaces = new SpacesService(deps, {
    authz: s.authz,
    collections: s.collections,
    grants: s.grants,
    orgs: s.orgs,
    store: s.store,
    trash: s.trash,
  });
  s.invites = new InvitesService(deps, {
    authz: s.authz,
    orgs: s.orgs,
    users: s.users,
    members: s.members,
    grants: s.grants,
    spaces: s.spaces,
    collections: s.collections,
  });

  // Change requests and the content they write, read and comment on.
  s.changeRequests = new ChangeRequestsService(deps, {
    authz: s.authz,
    spaces: s.spaces,
    users: s.users,
    // Clusters are made further down; a change request is created long after both exist.
    clusterExists: (orgId, clusterId) => s.conversationClusters.exists(orgId, clusterId),
  });
  s.reviews = new ReviewsService(deps, {
    changeRequests: s.changeRequests,
    members: s.members,
    users: s.users,
  });
  s.links = new LinkIndex({ store: s.store });
  s.searchEngine = new SearchEngine(deps, { jobs: s.jobs, store: s.store, openapi: s.openapi });
  s.spaces.onHeadMoved((tx, moved) => s.searchEngine.spaceChanged(tx, moved.spaceId));
  s.spaces.onOrgMove((tx, spaceIds, orgId) => s.searchEngine.index.spacesMoving(tx, spaceIds, orgId));
  s.trash.onPurge(async (tx, spaceIds) => {
    for (const spaceId of spaceIds) await s.searchEngine.index.dropSpace(tx, spaceId);
  });
  s.merges = new MergeService(deps, {
    changeRequests: s.changeRequests,
    reviews: s.reviews,
    spaces: s.spaces,
    orgs: s.orgs,
    store: s.store,
    links: s.links,
  });
  s.storedDocuments = new StoredDocuments(deps.db);
  s.documentFill = new DocumentFill(deps, { store: s.store, stored: s.storedDocuments, jobs: s.jobs });
  s.spaces.onHeadMoved((tx, moved) => s.documentFill.spaceChanged(tx, moved.spaceId));
  s.trash.onPurge((tx, spaceIds) => s.storedDocuments.dropSpaces(tx, spaceIds));
  s.content = new ContentService(deps, {
    authz: s.authz,
    changeRequests: s.changeRequests,
    store: s.store,
    stored: s.storedDocuments,
  });
  s.contentWrites = new ContentWriteService(deps, {
    changeRequests: s.changeRequests,
    store: s.store,
    blobs: s.blobs,
    outbound: s.outbound,
  });
  s.linkReader = new LinksService(deps, { content: s.content });
  s.templates = new TemplatesService({
    authz: s.authz,
    changeRequests: s.changeRequests,
    contentWrites: s.contentWrites,
    openapi: s.openapi,
  });
  s.comments = new CommentsService(deps, {
    authz: s.authz,
    changeRequests: s.changeRequests,
    content: s.content,
    members: s.members,
    spaces: s.spaces,
    users: s.users,
  });

  s.sites = new SitesArea(deps, { authz: s.authz, spaces: s.spaces });
  s.appPages = new AppPagesService({
    clock: deps.clock,
    tokens: s.tokens,
    orgs: s.orgs,
    spaces: s.spaces,
    publishedOf: (spaceIds) => s.sites.siteSpaces.publishedOf(spaceIds),
    // The organization's active SSO providers, as `GET {O}/sso` lists them.
    loginProviders: (orgId) => s.samlProviders.activeLogins(orgId),
  });
  s.search = new SearchService({ authz: s.authz, searchEngine: s.searchEngine, spaces: s.spaces });
  s.git = new GitService(deps, {
    authz: s.authz,
    jobs: s.jobs,
    store: s.store,
    blobs: s.blobs,
    outbound: s.outbound,
    links: s.links,
    spaces: s.spaces,
    // Delivery is made further down; a sync runs long after both exist.
    syncEvents: {
      started: (...args) => s.integrationDelivery.gitSync.started(...args),
      completed: (...args) => s.integrationDelivery.gitSync.completed(...args),
    },
  });
  s.storage = new StorageService(deps, { authz: s.authz, blobs: s.blobs });
  s.secretBox = new SecretBox(() => deps.config.secretsKey ?? dataDirSecretsKey(deps.config.dataDir));
  s.integrationRuntime = new IntegrationRuntime({
    binary: findWorkerd(),
    limits: {
      timeoutMs: deps.config.integrationTimeoutMs,
      memoryMb: deps.config.integrationMemoryMb,
      maxBodyBytes: INTEGRATION_BODY_BYTES,
    },
    idleMs: INTEGRATION_IDLE_MS,
    log: deps.log,
    gateway: (integration) => integrationGateway(deps, s.outbound, integration, () => s.apiForGateway),
  });
  s.integrationIdentities = new InstallationIdentities(deps, {
    users: s.users,
    members: s.members,
    tokens: s.tokens,
  });
  s.integrationDelivery = new IntegrationDelivery(deps, {
    jobs: s.jobs,
    runtime: s.integrationRuntime,
    identities: s.integrationIdentities,
    integrations: {
      forDelivery: async (name) => {
        const found = await s.integrations.forDelivery(name);
        if (!found) return undefined;
        const { view, script, secrets } = found;
        return {
          name,
          version: view.row.version,
          title: view.row.title,
          scopes: JSON.parse(view.row.scopes) as string[],
          script,
          secrets,
          presented: presentIntegration(view, deps.urls),
        };
      },
      stampOf: (name) => s.integrations.stampOf(name),
      installationForDelivery: async (id) => {
        const row = await s.integrations.installationRow(id);
        if (!row) return undefined;
        const spaces = (await s.integrations.spaceCounts([id])).get(id) ?? 0;
        const presented = presentInstallation(row, deps.urls, spaces);
        return { id: row.id, org_id: row.org_id, integration_name: row.integration_name, presented };
      },
      installationIdsForSpace: (db, orgId, spaceId) =>
        s.integrations.installationIdsForSpace(db, orgId, spaceId),
      spaceInstallationForDelivery: async (installationId, spaceId) => {
        const row = await s.integrationSpaces.forDelivery(installationId, spaceId);
        const installation = row && (await s.integrations.installationRow(installationId));
        return installation && presentSpaceInstallation(row, installation.integration_name, deps.urls);
      },
    },
    eventLog: { record: (...args) => s.integrationEvents.record(...args) },
    presentUsers: async (db, ids) => (await s.users.rows(ids, db)).map((row) => presentUser(row, deps.urls)),
    signingSecret: (name) => s.secretBox.derive(`integration-signing:${name}`),
    orgOfSpace: async (db, spaceId) =>
      (await db.selectFrom('spaces').select('org_id').where('id', '=', spaceId).executeTakeFirst())?.org_id,
  });
  s.integrations = new IntegrationsService(deps, {
    authz: s.authz,
    orgs: s.orgs,
    blobs: s.blobs,
    secrets: s.secretBox,
    events: s.integrationDelivery,
    runtime: s.integrationRuntime,
    identities: s.integrationIdentities,
  });
  s.integrationSpaces = new SpaceInstallationsService(deps, {
    installations: s.integrations,
    spaces: s.spaces,
    events: s.integrationDelivery,
  });
  s.integrationEvents = new IntegrationEventLog(deps, { integrations: s.integrations });
  s.spaces.onHeadMoved(s.integrationDelivery.headMoved);
  s.translations = new TranslationsService(deps, { authz: s.authz, jobs: s.jobs });
  s.translationRuns = new TranslationRunner(deps, {
    jobs: s.jobs,
    store: s.store,
    links: s.links,
    spaces: s.spaces,
    users: s.users,
    translations: s.translations,
    provider: deps.config.translation && createProvider(deps.config.translation),
  });
  s.spaces.onHeadMoved(s.translations.headMoved);
  s.conversations = new ConversationsService(deps, {
    authz: s.authz,
    jobs: s.jobs,
    installationOf: (actor) => s.integrationIdentities.installationOf(actor),
  });
  s.conversationClusters = new ClustersService(deps, { authz: s.authz });
  s.conversationAnalysis = new ConversationAnalysis(deps, {
    jobs: s.jobs,
    // Every space of the organization, as its admins search it: the analysis shows no page to
    // anyone, it only tells whether one answers the cluster.
    matchingPages: async (orgId, terms) => {
      // The terms are the analysis's stems ("expir"): each is searched on its own, where a
      // query's last word also matches as a prefix, and a page must match all but one of them.
      const languages = await s.spaces.languagesIn(orgId);
      const found = new Map<
        string,
        { spaceId: string; pageId: string; title: string; score: number; terms: number }
      >();
      for (const term of terms) {
        const { hits } = await s.searchEngine.search({
          query: term,
          scope: { org: { orgId, visibility: EVERY_SPACE }, includeHidden: false },
          languages,
          scopeKey: `conversations:${orgId}`,
          limit: 20,
        });
        for (const hit of hits) {
          const key = `${hit.spaceId}/${hit.pageId}`;
          const page = found.get(key) ?? {
            spaceId: hit.spaceId,
            pageId: hit.pageId,
            title: hit.title,
            score: 0,
            terms: 0,
          };
          page.score += hit.score;
          page.terms++;
          found.set(key, page);
        }
      }
      const needed = Math.max(1, terms.length - 1);
      return [...found.values()]
        .filter((page) => page.terms >= needed)
        .sort((a, b) => b.terms - a.terms || b.score - a.score)
        .slice(0, 3)
        .map(({ terms: _terms, ...page }) => page);
    },
  });
  s.spaces.onVisibilityChanged(s.integrationDelivery.visibilityChanged);
  s.siteViews = new SiteViews(deps, {
    installationIdsInOrgs: (db, orgIds) => s.integrations.installationIdsInOrgs(orgIds, db),
    enqueueBatch: (tx, id, events) => s.integrationDelivery.enqueueBatch(tx, id, events),
  });
  s.imports = new ImportsService(deps, {
    authz: s.authz,
    jobs: s.jobs,
    spaces: s.spaces,
    siteSpaces: s.sites.siteSpaces,
    changeRequests: s.changeRequests,
    contentWrites: s.contentWrites,
    merges: s.merges,
    storage: s.storage,
    users: s.users,
    blobs: s.blobs,
    outbound: s.outbound,
  });
  const chromium = chromiumSource(deps.config.pdf.chromiumPath);
  s.printer =
    chromium === undefined
      ? undefined
      : new PdfPrinter({
          locate: () => findChromium({ QUIRE_CHROMIUM_PATH: chromium === 'packaged' ? undefined : chromium }),
          idleMs: PRINTER_IDLE_MS,
          log: deps.log,
        });
  s.pdf = new PdfService(deps, {
    changeRequests: s.changeRequests,
    content: s.content,
    users: s.users,
    members: s.members,
    store: s.store,
    openapi: s.openapi,
    jobs: s.jobs,
    blobs: s.blobs,
    printer: s.printer,
    signingKey: () => new TextEncoder().encode(s.secretBox.derive('print-urls')),
  });
  registerJobs(s);
  return s;
}

/** Every kind of background job, and the recurring ones. */
function registerJobs(services: Services): void {
  services.jobs.register('trash.purge', async () => {
    await services.trash.purge();
  });
  services.jobs.schedule('trash.purge', HOUR_MS, 'trash.purge');
  services.jobs.register('sessions.purge', async () => {
    await services.sessions.purgeExpired();
  });
  services.jobs.schedule('sessions.purge', HOUR_MS, 'sessions.purge');
  services.searchEngine.registerJobs(services.jobs);
  services.documentFill.registerJobs();
  services.pdf.registerJobs();
  services.git.registerJobs();
  services.imports.registerJobs();
  services.openapi.registerJobs();
  services.translationRuns.registerJobs();
  services.conversationAnalysis.registerJobs();
  services.integrationDelivery.registerJobs();
  services.jobs.register('integrations.events.purge', async () => {
    await services.integrationEvents.purge();
  });
  services.jobs.schedule('integrations.events.purge', HOUR_MS, 'integrations.events.purge');
}
