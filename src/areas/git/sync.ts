import type { BlobStore } from '../../content/blob-store.js';
import type { ContentStore } from '../../content/store.js';
import type { GitCache } from '../../git/cache.js';
import type { PageFileMemo } from '../../git/page-files.js';
import type { OutboundClient } from '../../http/outbound.js';
import type { LinkIndex } from '../content/link-index.js';
import type { SpacesService } from '../spaces/service.js';

/** What a sync job carries: the request, its credentials sealed (never in clear in the job table). */
export interface SyncJob {
  spaceId: string;
  direction: 'import' | 'export';
  url: string;
  sealed?: string;
  ref: string;
  projectDir: string;
  treeUrl?: string;
  commitUrl?: string;
  timestamp?: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
  actorId: string | null;
}

/** The services a sync job calls. */
export interface SyncNeeds {
  store: ContentStore;
  blobs: Pick<BlobStore, 'get' | 'put'>;
  outbound: Pick<OutboundClient, 'check'>;
  links: Pick<LinkIndex, 'reindex'>;
  spaces: Pick<SpacesService, 'headOf' | 'lockRow' | 'moveHead'>;
}

/** What a sync job works with: those services, and the git area's caches. */
export interface SyncContext extends SyncNeeds {
  git: { cache: GitCache; pageFiles: PageFileMemo };
}
