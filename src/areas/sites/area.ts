import type { Deps } from '../../deps.js';
import { SiteAddresses } from '../../publish/addresses.js';
import { SiteAccessor } from './access.js';
import { AdaptiveSchemaService } from './adaptive-schema.js';
import { CustomizationService } from './customization.js';
import type { Links } from './present.js';
import { PublishedContentService } from './published-content.js';
import { PublishingAuthService } from './publishing-auth.js';
import { SectionGroupsService } from './section-groups.js';
import { SectionsService } from './sections.js';
import { type SitesNeeds, SitesService } from './service.js';
import { ShareLinksService } from './share-links.js';
import { SiteSpacesService } from './site-spaces.js';
import { StructureService } from './structure.js';

/** The docs-site area: one service per sub-area, sharing the site access rules. */
export class SitesArea {
  readonly access: SiteAccessor;
  readonly sites: SitesService;
  readonly sections: SectionsService;
  readonly groups: SectionGroupsService;
  readonly siteSpaces: SiteSpacesService;
  readonly structure: StructureService;
  readonly shareLinks: ShareLinksService;
  readonly customization: CustomizationService;
  readonly adaptive: AdaptiveSchemaService;
  readonly publishingAuth: PublishingAuthService;
  readonly published: PublishedContentService;
  /** What presenters build URLs from. */
  readonly links: Links;

  constructor(deps: Deps, services: SitesNeeds) {
    const addresses = new SiteAddresses(deps.config.publicUrl);
    this.links = { urls: deps.urls, addresses };
    this.access = new SiteAccessor(deps, services);
    this.sites = new SitesService(deps, services, this.access, addresses);
    this.sections = new SectionsService(deps, this.access, this.sites);
    this.groups = new SectionGroupsService(deps, this.access);
    this.siteSpaces = new SiteSpacesService(deps, this.access, this.sites);
    this.structure = new StructureService(this.access);
    this.shareLinks = new ShareLinksService(deps, this.access);
    this.customization = new CustomizationService(deps, this.access);
    this.adaptive = new AdaptiveSchemaService(deps, this.access);
    this.publishingAuth = new PublishingAuthService(this.access);
    this.published = new PublishedContentService(this.access, this.sites);
  }
}
